// Compressed cores (xz as shipped in bug reports and our corpus, zstd as systemd-coredump
// stores them), decoded with liblzma / libzstd into a private temporary file that the ELF
// reader then maps like any core.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "parsers/parse_error.hpp"
#include "util/fd.hpp"

namespace aoti::parsers::coredump {

enum class Compression { none, xz, zstd };

Compression detect_compression(std::string_view head);
std::string_view to_string(Compression compression);  // "", "xz", "zstd"

// The first decoded bytes of a compressed `head` (at most `limit`), best effort: used to sniff
// what is inside without decoding the whole stream.
std::string decode_head(std::string_view head, Compression compression, std::size_t limit);

struct Decompressed {
  util::Fd file;         // private, unlinked; positioned anywhere
  std::uint64_t size = 0;
  std::string problem;   // "" when the stream decoded completely; else why it stopped early
};

// Fails only when not a single byte could be decoded (garbage, wrong format, unreadable).
// Decoding stops at `max_bytes` (a `problem` says so): a core's size is the process's, and a
// crafted stream could otherwise fill the disk.
Parsed<Decompressed> decompress_to_private_file(const std::filesystem::path& path, Compression compression,
                                                std::uint64_t max_bytes);

}  // namespace aoti::parsers::coredump
