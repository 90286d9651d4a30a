// Reads lines through one bounded buffer, from a file or from text already in memory: a line longer
// than the cap comes back cut to its first `max_line` bytes (its full length told, and counted), so
// a gigabyte without a newline costs no more memory than a short line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "util/fd.hpp"

namespace aoti::util {

struct Line {
  std::string_view text;     // without the '\n'; valid until the next call
  std::uint64_t number = 0;  // 1-based
  std::uint64_t length = 0;  // full length, > text.size() when the line was cut
  bool cut() const { return length > text.size(); }
};

// What happens to a '\r' just before a line's '\n'. Kept, readers that strip it themselves see the
// line as the file holds it; dropped, CRLF files read as LF ones (as tlparse reads them).
enum class CarriageReturn { keep, drop };

class LineReader {
 public:
  // Reads the file at `path`; is_open() says whether it could be opened.
  LineReader(const std::filesystem::path& path, std::size_t max_line,
             CarriageReturn carriage_return = CarriageReturn::keep);
  // Splits `text`, which must outlive the reader; whole lines come back as views into it.
  static LineReader of_text(std::string_view text, std::size_t max_line,
                            CarriageReturn carriage_return = CarriageReturn::keep);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  bool is_open() const { return static_cast<bool>(m_file) || m_in_memory; }
  const std::string& error() const { return m_error; }  // why reading stopped early, if it did
  // The next line; false at the end of the input or on a read error. An empty last piece after the
  // final '\n' is not a line.
  bool next(Line& line);
  std::uint64_t bytes_read() const { return m_bytes_read; }
  std::size_t max_line() const { return m_max_line; }

  // The lines cut so far: how many, and the first one's number and full length.
  std::uint64_t cut_lines() const { return m_cut_lines; }
  std::uint64_t first_cut_line() const { return m_first_cut_line; }
  std::uint64_t first_cut_length() const { return m_first_cut_length; }

 private:
  LineReader(std::string_view text, std::size_t max_line, CarriageReturn carriage_return);
  bool fill();  // reads more after m_end; false at end of input or on error
  std::size_t find_newline(std::size_t from, std::size_t to) const;  // npos when there is none
  bool whole_line(Line& line, std::size_t end, bool newline);
  bool cut_line(Line& line);

  Fd m_file;  // closed with the reader; none when reading text in memory
  bool m_in_memory = false;
  std::size_t m_max_line;
  CarriageReturn m_carriage_return;
  std::vector<char> m_buffer;
  const char* m_data = nullptr;  // m_buffer's bytes, or the text in memory
  std::size_t m_begin = 0;       // the unread bytes are [m_begin, m_end) of m_data
  std::size_t m_end = 0;
  bool m_eof = false;
  std::string m_long;  // the kept prefix of a cut line whose bytes left the buffer
  std::uint64_t m_number = 0;
  std::uint64_t m_bytes_read = 0;
  std::uint64_t m_cut_lines = 0;
  std::uint64_t m_first_cut_line = 0;
  std::uint64_t m_first_cut_length = 0;
  std::string m_error;
};

}  // namespace aoti::util
