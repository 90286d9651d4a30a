// A read-only view of a zip file (read by zip_archive.cpp itself, which says why): the central
// directory, bounded reads of small entries, and seekable windows into STORED entries (weights and
// the model .so are never inflated).
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/parse_error.hpp"
#include "parsers/random_access.hpp"

namespace aoti::parsers::zip {

struct ZipEntry {
  std::string name;
  std::uint64_t size = 0;  // uncompressed
  std::uint64_t compressed_size = 0;
  bool stored = false;    // compression method 0
  std::uint32_t crc = 0;  // CRC-32 from the central directory: content identity for free
  std::uint64_t index = 0;
};

// Whether `path` is a regular file that starts with a zip local header: a sniff that keeps
// arbitrary files (FIFOs, devices, anything else) away from the zip reader.
bool starts_like_zip(const std::filesystem::path& path);

class ZipArchive {
 public:
  // Opens and validates the central directory; reads no entry data. An entry's local header is
  // checked against its central record when the entry is read.
  static Parsed<ZipArchive> open(const std::filesystem::path& path);

  ZipArchive(ZipArchive&&) noexcept;
  ZipArchive& operator=(ZipArchive&&) noexcept;
  ~ZipArchive();

  const std::vector<ZipEntry>& entries() const;
  const ZipEntry* find(std::string_view name) const;

  // The whole entry, inflated if needed and its CRC-32 checked; fails (no partial data) when its
  // declared or actual size exceeds max_bytes — the guard against zip bombs. Stored and deflated
  // entries are read; other methods (bzip2, LZMA, zstd: never written by torch) are named.
  Parsed<std::string> read(const ZipEntry& entry, std::uint64_t max_bytes) const;

  // A random-access view of a STORED entry's bytes inside the zip file (no copy, no inflate).
  // Fails for compressed entries.
  Parsed<std::unique_ptr<RandomAccess>> open_stored(const ZipEntry& entry) const;

 private:
  struct Impl;
  explicit ZipArchive(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> m_impl;
};

}  // namespace aoti::parsers::zip
