#include "util/open_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "util/errno_text.hpp"

namespace aoti::util {
namespace {

std::string not_regular(mode_t mode) { return "not a regular file: " + file_type_text(mode); }

}  // namespace

std::string file_type_text(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISREG(mode)) return "a regular file";
  return "of an unknown type";
}

std::string regular_file_problem(const std::filesystem::path& path) {
  struct stat info{};
  if (::stat(path.c_str(), &info) != 0) return errno_text(errno);
  return S_ISREG(info.st_mode) ? std::string() : not_regular(info.st_mode);
}

tl::expected<Fd, std::string> open_regular_file(const std::filesystem::path& path) {
  if (std::string problem = regular_file_problem(path); !problem.empty())
    return tl::unexpected(std::move(problem));
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
  if (!fd) return tl::unexpected(errno_text(errno));
  struct stat info{};
  if (::fstat(fd.get(), &info) != 0) return tl::unexpected(errno_text(errno));
  if (!S_ISREG(info.st_mode)) return tl::unexpected(not_regular(info.st_mode));
  // Regular files never block; cleared so later reads behave as usual.
  if (const int flags = ::fcntl(fd.get(), F_GETFL); flags >= 0)
    ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK);
  return fd;
}

tl::expected<std::string, std::string> read_regular_file(const std::filesystem::path& path,
                                                         std::size_t max_bytes) {
  auto file = open_regular_file(path);
  if (!file) return tl::unexpected(file.error());
  struct stat info{};
  const std::size_t expected =
      ::fstat(file->get(), &info) == 0 ? static_cast<std::size_t>(info.st_size) : 0;
  std::string text(std::min(expected, max_bytes), '\0');
  std::size_t done = 0;
  while (done < max_bytes) {
    if (done == text.size())
      text.resize(std::min(max_bytes, std::max<std::size_t>(4096, 2 * done)));
    const ssize_t got = ::read(file->get(), text.data() + done, text.size() - done);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return tl::unexpected(errno_text(errno));
    if (got == 0) break;
    done += static_cast<std::size_t>(got);
  }
  text.resize(done);
  return text;
}

std::string read_file_head(const std::filesystem::path& path, std::size_t count) {
  return read_regular_file(path, count).value_or(std::string());
}

}  // namespace aoti::util
