// Owns one file descriptor and closes it, in the shape of ccache's util::Fd: every reader that
// opens a file holds it in one of these, so no error path can leak a descriptor.
#pragma once

#include <unistd.h>

namespace aoti::util {

class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : m_fd(fd) {}
  Fd(Fd&& other) noexcept : m_fd(other.release()) {}
  Fd& operator=(Fd&& other) noexcept {
    if (this != &other) {
      close();
      m_fd = other.release();
    }
    return *this;
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { close(); }

  explicit operator bool() const { return m_fd >= 0; }
  int get() const { return m_fd; }

  // Closes before the end of the lifetime; false when there was nothing to close or close failed.
  bool close() { return m_fd >= 0 && ::close(release()) == 0; }
  // Gives up ownership: the caller (or a C library such as libdwfl) closes it.
  int release() {
    const int fd = m_fd;
    m_fd = -1;
    return fd;
  }

 private:
  int m_fd = -1;
};

}  // namespace aoti::util
