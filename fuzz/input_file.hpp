// The fuzz input as a file, for the parsers that take a path (the zip reader, libdw and the trace
// reader open files themselves): one memfd per process, rewritten for each input, so no input
// touches the disk and the path is a regular file to util::open_regular_file.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace aoti::fuzz {

class InputFile {
 public:
  InputFile() : fd_(memfd_create("aoti-fuzz-input", MFD_CLOEXEC)) {
    if (fd_ < 0) std::abort();
    path_ = "/proc/self/fd/" + std::to_string(fd_);
  }
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  // Replaces the file's bytes with `data`.
  const std::string& write(const std::uint8_t* data, std::size_t size) {
    if (ftruncate(fd_, 0) != 0) std::abort();
    std::size_t done = 0;
    while (done < size) {
      ssize_t n = pwrite(fd_, data + done, size - done, static_cast<off_t>(done));
      if (n <= 0) std::abort();
      done += static_cast<std::size_t>(n);
    }
    return path_;
  }

 private:
  int fd_;
  std::string path_;
};

// One per process: libFuzzer calls the target from one thread.
inline InputFile& input_file() {
  static InputFile file;
  return file;
}

}  // namespace aoti::fuzz
