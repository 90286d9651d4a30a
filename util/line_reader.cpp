#include "util/line_reader.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "util/errno_text.hpp"
#include "util/open_file.hpp"

namespace aoti::util {
namespace {
constexpr std::size_t k_chunk = 1u << 20;
constexpr std::size_t k_npos = std::string_view::npos;
}  // namespace

LineReader::LineReader(const std::filesystem::path& path, std::size_t max_line,
                       CarriageReturn carriage_return)
    : m_max_line(std::max<std::size_t>(max_line, 16)), m_carriage_return(carriage_return) {
  auto opened = open_regular_file(path);
  if (!opened) {
    m_error = std::move(opened.error());
    return;
  }
  m_file = std::move(*opened);
  ::posix_fadvise(m_file.get(), 0, 0, POSIX_FADV_SEQUENTIAL);
  m_buffer.resize(std::min(m_max_line, k_chunk) + k_chunk);
  m_data = m_buffer.data();
}

LineReader::LineReader(std::string_view text, std::size_t max_line, CarriageReturn carriage_return)
    : m_in_memory(true),
      m_max_line(std::max<std::size_t>(max_line, 16)),
      m_carriage_return(carriage_return),
      m_data(text.data()),
      m_end(text.size()),
      m_eof(true),
      m_bytes_read(text.size()) {}

LineReader LineReader::of_text(std::string_view text, std::size_t max_line,
                               CarriageReturn carriage_return) {
  return LineReader(text, max_line, carriage_return);
}

LineReader::~LineReader() = default;

bool LineReader::fill() {
  if (m_eof || !m_file) return false;
  if (m_begin > 0) {  // keep the unread tail at the front
    std::memmove(m_buffer.data(), m_buffer.data() + m_begin, m_end - m_begin);
    m_end -= m_begin;
    m_begin = 0;
  }
  if (m_buffer.size() - m_end < k_chunk) m_buffer.resize(m_end + k_chunk);
  m_data = m_buffer.data();
  for (;;) {
    const ssize_t got = ::read(m_file.get(), m_buffer.data() + m_end, m_buffer.size() - m_end);
    if (got > 0) {
      m_end += static_cast<std::size_t>(got);
      m_bytes_read += static_cast<std::uint64_t>(got);
      return true;
    }
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) m_error = errno_text(errno);
    m_eof = true;
    return false;
  }
}

std::size_t LineReader::find_newline(std::size_t from, std::size_t to) const {
  if (from >= to) return k_npos;
  const void* newline = std::memchr(m_data + from, '\n', to - from);
  return newline ? static_cast<std::size_t>(static_cast<const char*>(newline) - m_data) : k_npos;
}

bool LineReader::next(Line& line) {
  std::size_t scanned = m_begin;  // bytes already known to hold no '\n'
  for (;;) {
    // A '\n' within max_line bytes of the line's start ends a whole line; any later one a cut line.
    const std::size_t newline = find_newline(scanned, std::min(m_end, m_begin + m_max_line + 1));
    if (newline != k_npos) return whole_line(line, newline, true);
    if (m_end - m_begin > m_max_line) return cut_line(line);
    const std::size_t pending = m_end - m_begin;
    if (!fill()) {
      if (m_end == m_begin) return false;
      return whole_line(line, m_end, false);  // the last line, without a final '\n'
    }
    scanned = m_begin + pending;
  }
}

bool LineReader::whole_line(Line& line, std::size_t end, bool newline) {
  line.text = std::string_view(m_data + m_begin, end - m_begin);
  if (newline && m_carriage_return == CarriageReturn::drop && !line.text.empty() &&
      line.text.back() == '\r')
    line.text.remove_suffix(1);
  line.length = line.text.size();
  line.number = ++m_number;
  m_begin = newline ? end + 1 : end;
  return true;
}

bool LineReader::cut_line(Line& line) {
  const std::size_t start = m_begin;
  std::uint64_t length = 0;
  if (const std::size_t newline = find_newline(start + m_max_line + 1, m_end); newline != k_npos) {
    // The whole line is buffered: its kept prefix stays where it is until the next call.
    line.text = std::string_view(m_data + start, m_max_line);
    length = newline - start;
    m_begin = newline + 1;
  } else {
    // The rest of the line is read and dropped chunk by chunk.
    m_long.assign(m_data + start, m_max_line);
    line.text = m_long;
    length = m_end - start;
    m_begin = m_end;
    while (fill()) {
      if (const std::size_t end = find_newline(m_begin, m_end); end != k_npos) {
        length += end - m_begin;
        m_begin = end + 1;
        break;
      }
      length += m_end - m_begin;
      m_begin = m_end;
    }
  }
  line.length = length;
  line.number = ++m_number;
  if (m_cut_lines++ == 0) {
    m_first_cut_line = line.number;
    m_first_cut_length = length;
  }
  return true;
}

}  // namespace aoti::util
