#include "parsers/trace/file_bytes.hpp"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <utility>

#include "util/errno_text.hpp"
#include "util/format_size.hpp"
#include "util/open_file.hpp"

namespace aoti::parsers::trace {

tl::expected<FileBytes, std::string> FileBytes::open(const std::filesystem::path& path) {
  auto file = util::open_regular_file(path);
  if (!file) return tl::unexpected(file.error());
  struct stat info{};
  if (::fstat(file->get(), &info) != 0) return tl::unexpected(util::errno_text(errno));
  FileBytes bytes;
  const auto size = static_cast<std::size_t>(info.st_size);
  if (size == 0) return bytes;
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, file->get(), 0);
  if (map != MAP_FAILED) {
    bytes.m_map = map;
    bytes.m_size = size;
    bytes.m_fd = std::move(*file);
    bytes.m_guard = std::make_unique<util::MappingGuard>(map, size);
    return bytes;
  }
  auto read = util::read_regular_file(path, size);
  if (!read) return tl::unexpected(read.error());
  bytes.m_read = std::move(*read);
  return bytes;
}

FileBytes::FileBytes(FileBytes&& other) noexcept
    : m_map(std::exchange(other.m_map, nullptr)),
      m_size(std::exchange(other.m_size, 0)),
      m_read(std::move(other.m_read)),
      m_fd(std::move(other.m_fd)),
      m_guard(std::move(other.m_guard)) {}

FileBytes::~FileBytes() {
  m_guard.reset();  // before the pages it guards are gone
  if (m_map) ::munmap(m_map, m_size);
}

bool FileBytes::read(char* out, std::size_t count, std::size_t offset) const {
  while (count > 0) {
    const ssize_t got = ::pread(m_fd.get(), out, count, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    out += got;
    offset += static_cast<std::size_t>(got);
    count -= static_cast<std::size_t>(got);
  }
  return true;
}

void FileBytes::prefault(const char* begin, const char* end) const {
#ifdef MADV_POPULATE_READ
  if (!m_map || end <= begin) return;
  static const auto k_page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const std::uintptr_t first = reinterpret_cast<std::uintptr_t>(begin) & ~(k_page - 1);
  ::madvise(reinterpret_cast<void*>(first),
            static_cast<std::size_t>(reinterpret_cast<std::uintptr_t>(end) - first),
            MADV_POPULATE_READ);
#else
  (void)begin;
  (void)end;
#endif
}

void FileBytes::release(const char* begin, const char* end) const {
  if (!m_map) return;
  static const auto k_page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const std::uintptr_t first =
      (reinterpret_cast<std::uintptr_t>(begin) + k_page - 1) & ~(k_page - 1);
  const std::uintptr_t last = reinterpret_cast<std::uintptr_t>(end) & ~(k_page - 1);
  if (last > first) ::madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
}

std::string FileBytes::changed_while_read() const {
  if (!m_fd) return {};
  struct stat info{};
  const bool known = ::fstat(m_fd.get(), &info) == 0;
  const auto now = known ? static_cast<std::uint64_t>(info.st_size) : 0;
  if (m_guard && m_guard->cut())
    return "the file shrank while it was read (" + util::format_size(m_size) + " when opened" +
           (known ? ", " + util::format_size(now) + " after" : std::string()) +
           "): what lay past its new end read as zeros, so its last records are missing or cut";
  if (known && now > m_size)
    return "the file grew while it was read (" + util::format_size(m_size) + " when opened, " +
           util::format_size(now) + " after): it was read to its size when opened";
  return {};
}

}  // namespace aoti::parsers::trace
