#include "parsers/trace/line_reader.hpp"
#include "util/errno_text.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace aoti::parsers::trace {
namespace {
constexpr std::size_t k_chunk = 1u << 20;
}

LineReader::LineReader(const std::filesystem::path& path, std::size_t max_line)
    : m_max_line(std::max<std::size_t>(max_line, 16)) {
  m_fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (m_fd < 0) {
    m_error = util::errno_text(errno);
    return;
  }
  ::posix_fadvise(m_fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  m_buffer.resize(std::min(m_max_line, k_chunk) + k_chunk);
}

LineReader::~LineReader() {
  if (m_fd >= 0) ::close(m_fd);
}

bool LineReader::fill() {
  if (m_eof || m_fd < 0) return false;
  if (m_begin > 0) {  // keep the unread tail at the front
    std::memmove(m_buffer.data(), m_buffer.data() + m_begin, m_end - m_begin);
    m_end -= m_begin;
    m_begin = 0;
  }
  if (m_buffer.size() - m_end < k_chunk) m_buffer.resize(m_end + k_chunk);
  for (;;) {
    const ssize_t got = ::read(m_fd, m_buffer.data() + m_end, m_buffer.size() - m_end);
    if (got > 0) {
      m_end += static_cast<std::size_t>(got);
      m_bytes_read += static_cast<std::uint64_t>(got);
      return true;
    }
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) m_error = util::errno_text(errno);
    m_eof = true;
    return false;
  }
}

bool LineReader::next(Line& line) {
  std::size_t scanned = m_begin;  // bytes already known to hold no '\n'
  for (;;) {
    const char* start = m_buffer.data() + scanned;
    const void* newline = std::memchr(start, '\n', m_end - scanned);
    if (newline) {
      const std::size_t at = static_cast<std::size_t>(static_cast<const char*>(newline) - m_buffer.data());
      line.text = std::string_view(m_buffer.data() + m_begin, at - m_begin);
      // CRLF logs (copied through Windows tools) read as LF ones, as tlparse reads them.
      if (!line.text.empty() && line.text.back() == '\r') line.text.remove_suffix(1);
      line.length = line.text.size();
      line.number = ++m_number;
      m_begin = at + 1;
      return true;
    }
    if (m_end - m_begin > m_max_line) break;  // too long: keep a prefix, skip the rest
    const std::size_t pending = m_end - m_begin;
    if (!fill()) {
      if (m_end == m_begin) return false;
      line.text = std::string_view(m_buffer.data() + m_begin, m_end - m_begin);  // no final '\n'
      line.length = line.text.size();
      line.number = ++m_number;
      m_begin = m_end;
      return true;
    }
    scanned = m_begin + pending;
  }
  m_long.assign(m_buffer.data() + m_begin, m_max_line);
  std::uint64_t length = m_end - m_begin;
  m_begin = m_end = 0;
  for (;;) {
    if (!fill()) break;
    const void* newline = std::memchr(m_buffer.data(), '\n', m_end);
    if (newline) {
      const std::size_t at = static_cast<std::size_t>(static_cast<const char*>(newline) - m_buffer.data());
      length += at;
      m_begin = at + 1;
      break;
    }
    length += m_end;
    m_end = 0;
  }
  line.text = m_long;
  line.length = length;
  line.number = ++m_number;
  return true;
}

}  // namespace aoti::parsers::trace
