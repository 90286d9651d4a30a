// Reads a file line by line through one bounded buffer: a line longer than the cap comes back cut
// to its first `max_line` bytes (its full length told), so a gigabyte without a newline costs no
// more memory than a short line. A '\r' before the '\n' is dropped, as tlparse does.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace aoti::parsers::trace {

struct Line {
  std::string_view text;      // without the '\n'; valid until the next call
  std::uint64_t number = 0;   // 1-based
  std::uint64_t length = 0;   // full length, > text.size() when the line was cut
  bool cut() const { return length > text.size(); }
};

class LineReader {
 public:
  static constexpr std::size_t k_default_max_line = 16u << 20;

  LineReader(const std::filesystem::path& path, std::size_t max_line = k_default_max_line);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  bool is_open() const { return m_fd >= 0; }
  const std::string& error() const { return m_error; }  // why reading stopped early, if it did
  bool next(Line& line);
  std::uint64_t bytes_read() const { return m_bytes_read; }

 private:
  bool fill();  // reads more after m_end; false at end of file or on error

  int m_fd = -1;
  std::size_t m_max_line;
  std::vector<char> m_buffer;
  std::size_t m_begin = 0;
  std::size_t m_end = 0;
  bool m_eof = false;
  std::string m_long;  // the kept prefix of a cut line
  std::uint64_t m_number = 0;
  std::uint64_t m_bytes_read = 0;
  std::string m_error;
};

}  // namespace aoti::parsers::trace
