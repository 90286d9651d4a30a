// A TORCH_TRACE log's bytes for the scan (log_scan.cpp): the file mapped read-only, or read whole
// where its file system cannot map it. The mapping is guarded (util/mapping_guard.hpp): a log cut
// while it is read reads as zeros past its new end instead of ending the process, and says so.
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include <tl/expected.hpp>

#include "util/fd.hpp"
#include "util/mapping_guard.hpp"

namespace aoti::parsers::trace {

class FileBytes {
 public:
  static tl::expected<FileBytes, std::string> open(const std::filesystem::path& path);
  FileBytes() = default;
  FileBytes(FileBytes&& other) noexcept;
  FileBytes& operator=(FileBytes&&) = delete;
  ~FileBytes();

  // Whether read() can copy bytes (a mapped file, whose descriptor is kept).
  bool readable() const { return static_cast<bool>(m_fd); }
  // Copies `count` bytes from `offset` into `out`: false when the file no longer has them (cut
  // while being read), where touching the mapping would have been a SIGBUS.
  bool read(char* out, std::size_t count, std::size_t offset) const;

  std::string_view view() const {
    return m_map ? std::string_view(static_cast<const char*>(m_map), m_size) : m_read;
  }
  // Maps the pages of [begin, end) in one call (where the kernel can: Linux 5.14 on) rather than
  // a page fault each as a scan first touches them.
  void prefault(const char* begin, const char* end) const;
  // Drops the mapped pages wholly inside [begin, end) from this process: they stay in the page
  // cache and are mapped again if touched. What keeps the resident size flat on a huge trace.
  void release(const char* begin, const char* end) const;

  // How the file changed while it was read, for a diagnostic; empty when it did not. A mapped
  // file that shrank read as zeros past its new end; one that grew was read to its first size.
  std::string changed_while_read() const;

 private:
  void* m_map = nullptr;
  std::size_t m_size = 0;
  std::string m_read;
  util::Fd m_fd;
  std::unique_ptr<util::MappingGuard> m_guard;
};

}  // namespace aoti::parsers::trace
