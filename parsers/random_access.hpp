// A bounds-checked, random-access byte source: a file, a range of a file (a stored zip entry),
// or memory. Lets the ELF reader read the model .so inside a package without extracting it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string_view>

#include "util/byte_reader.hpp"

namespace aoti::parsers {

class RandomAccess {
 public:
  virtual ~RandomAccess() = default;
  virtual std::uint64_t size() const = 0;
  // Fills `out` from `offset`; throws util::ReadError when [offset, offset + out.size()) is not
  // inside or the read fails. Parsers catch it at their boundary and turn it into a ParseError.
  virtual void read(std::uint64_t offset, std::span<std::byte> out) const = 0;
};

// A window [offset, offset + length) of a file, read with pread.
std::unique_ptr<RandomAccess> open_file_range(const std::filesystem::path& path,
                                              std::uint64_t offset, std::uint64_t length);
std::unique_ptr<RandomAccess> open_file(const std::filesystem::path& path);
// Borrows `bytes`; they must outlive the returned source.
std::unique_ptr<RandomAccess> open_memory(std::string_view bytes);

}  // namespace aoti::parsers
