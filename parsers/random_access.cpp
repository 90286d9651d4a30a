#include "parsers/random_access.hpp"
#include "util/errno_text.hpp"
#include "util/fd.hpp"
#include "util/open_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

namespace aoti::parsers {
namespace {

void check_range(std::uint64_t offset, std::size_t count, std::uint64_t size) {
  if (offset > size || count > size - offset)
    throw util::ReadError("read of " + std::to_string(count) + " bytes at offset " +
                          std::to_string(offset) + " is past the end (" + std::to_string(size) +
                          " bytes)");
}

class FileRange final : public RandomAccess {
 public:
  FileRange(util::Fd fd, std::uint64_t offset, std::uint64_t length)
      : m_fd(std::move(fd)), m_offset(offset), m_length(length) {}

  std::uint64_t size() const override { return m_length; }

  void read(std::uint64_t offset, std::span<std::byte> out) const override {
    check_range(offset, out.size(), m_length);
    std::size_t done = 0;
    while (done < out.size()) {
      const ssize_t got = ::pread(m_fd.get(), out.data() + done, out.size() - done,
                                  static_cast<off_t>(m_offset + offset + done));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0)
        throw util::ReadError(got == 0 ? "file ended early"
                                       : std::string("read failed: ") + util::errno_text(errno));
      done += static_cast<std::size_t>(got);
    }
  }

 private:
  util::Fd m_fd;
  std::uint64_t m_offset;
  std::uint64_t m_length;
};

class MemoryRange final : public RandomAccess {
 public:
  explicit MemoryRange(std::string_view bytes) : m_bytes(bytes) {}
  std::uint64_t size() const override { return m_bytes.size(); }
  void read(std::uint64_t offset, std::span<std::byte> out) const override {
    check_range(offset, out.size(), m_bytes.size());
    if (out.empty()) return;  // an empty view's data() may be null: no pointer arithmetic on it
    std::memcpy(out.data(), m_bytes.data() + offset, out.size());
  }

 private:
  std::string_view m_bytes;
};

}  // namespace

std::unique_ptr<RandomAccess> open_file_range(const std::filesystem::path& path,
                                              std::uint64_t offset, std::uint64_t length) {
  auto fd = util::open_regular_file(path);
  if (!fd) throw util::ReadError("cannot open " + path.string() + ": " + fd.error());
  return std::make_unique<FileRange>(std::move(*fd), offset, length);
}

std::unique_ptr<RandomAccess> open_file(const std::filesystem::path& path) {
  auto fd = util::open_regular_file(path);
  if (!fd) throw util::ReadError("cannot open " + path.string() + ": " + fd.error());
  struct stat info{};
  if (::fstat(fd->get(), &info) != 0)
    throw util::ReadError("cannot read " + path.string() + ": " + util::errno_text(errno));
  return std::make_unique<FileRange>(std::move(*fd), 0, static_cast<std::uint64_t>(info.st_size));
}

std::unique_ptr<RandomAccess> open_memory(std::string_view bytes) {
  return std::make_unique<MemoryRange>(bytes);
}

}  // namespace aoti::parsers
