// Opens a file that a user or an input named. A FIFO blocks open() until a writer comes, a device
// such as /dev/zero never ends, and opening some devices has side effects: so the type is checked
// before opening (stat), the open itself cannot block (O_NONBLOCK), and fstat confirms the type of
// what was opened (the path may have changed in between).
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <filesystem>
#include <string>

#include "util/expected.hpp"
#include "util/fd.hpp"

namespace aoti::util {

// "a FIFO", "a socket", "a character device", "a block device", "a folder", ...
std::string file_type_text(mode_t mode);

// Empty when `path` (symbolic links followed) is a regular file; else why it is not to be read:
// "not a regular file: a FIFO", or the error stat gave. Opens nothing.
std::string regular_file_problem(const std::filesystem::path& path);

// A read-only descriptor for the regular file at `path`, or why there is none (errno text, or
// "not a regular file: a character device").
tl::expected<Fd, std::string> open_regular_file(const std::filesystem::path& path);

// The regular file at `path`, up to its first `max_bytes` bytes, or why it cannot be read (as
// open_regular_file says). Callers check the size they allow first; a file that grew since is cut.
tl::expected<std::string, std::string> read_regular_file(const std::filesystem::path& path,
                                                         std::size_t max_bytes);

// The first `count` bytes of the regular file at `path` (fewer when it is shorter); empty for
// anything else or when it cannot be read. What sniffers look at.
std::string read_file_head(const std::filesystem::path& path, std::size_t count);

}  // namespace aoti::util
