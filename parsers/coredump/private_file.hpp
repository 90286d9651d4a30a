// A private, nameless scratch file: created with mkstemp in $TMPDIR (or /tmp) and unlinked at
// once, so nothing is left behind and no other process can guess or open its path.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "parsers/parse_error.hpp"

namespace aoti::parsers::coredump {

// Owns one file descriptor.
class FileDescriptor {
 public:
  FileDescriptor() = default;
  explicit FileDescriptor(int fd) : m_fd(fd) {}
  FileDescriptor(FileDescriptor&& other) noexcept : m_fd(other.release()) {}
  FileDescriptor& operator=(FileDescriptor&& other) noexcept;
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor();

  int get() const { return m_fd; }
  int release() {
    const int fd = m_fd;
    m_fd = -1;
    return fd;
  }
  explicit operator bool() const { return m_fd >= 0; }

 private:
  int m_fd = -1;
};

// A private file (see above), open for reading and writing.
Parsed<FileDescriptor> create_private_file();

// Appends `bytes` at the file's current position, seeking over whole zero pages instead of
// writing them: cores are mostly holes, and a decompressed copy should stay as sparse as the
// original. Call finish_sparse() at the end so a trailing hole still counts in the size.
Parsed<void> write_sparse(int fd, std::span<const unsigned char> bytes);
Parsed<void> finish_sparse(int fd, std::uint64_t size);

}  // namespace aoti::parsers::coredump
