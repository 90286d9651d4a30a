// Compressed cores (xz as shipped in bug reports and our corpus, zstd as systemd-coredump
// stores them), decoded with liblzma / libzstd into a private temporary file that the ELF
// reader then maps like any core.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/parse_error.hpp"
#include "util/fd.hpp"

namespace aoti::parsers::coredump {

enum class Compression { none, xz, zstd };

Compression detect_compression(std::string_view head);
std::string_view to_string(Compression compression);  // "", "xz", "zstd"

// The first `limit` bytes of the dump whose file starts with `head`: `head` itself when it is not
// compressed, else what its first bytes decode to (best effort, within DecodeLimits' default
// memory). Sniffing CPU and GPU cores looks at these, without decoding the whole stream.
std::string plain_head(std::string_view head, std::size_t limit);

struct Decompressed {
  util::Fd file;  // private, unlinked; positioned anywhere
  std::uint64_t size = 0;
  std::string problem;  // "" when the stream decoded completely; else why it stopped early
  // The stream went on past the end the dump's own ELF headers declare, and was cut there: what
  // was decoded is the whole dump, the rest is no part of it.
  bool past_declared_end = false;
};

// What decoding one compressed core may take. The defaults suit a scan, which already decodes
// one core per worker thread.
struct DecodeLimits {
  // Decoding stops here (a `problem` says so): a core's size is the process's, and a crafted
  // stream could otherwise fill the disk.
  std::uint64_t max_bytes = 64ull << 30;
  // xz only: decoder threads, used by multi-block streams (xz -T); a single-block stream decodes
  // on one thread whatever this says.
  unsigned threads = 1;
  // xz only: the most memory the decoder may allocate. A stream declares its own dictionary size
  // (up to 1.5 GiB); xz -9 needs 65 MiB, so a larger one is refused rather than allocated.
  std::uint64_t max_memory = 256ull << 20;
};

// A dump opened for reading: the file itself, or, when it is xz or zstd, a private file it was
// decoded into; `health` says which (and what was lost when the stream stopped early).
struct OpenedDump {
  util::Fd file;
  Compression compression = Compression::none;
  std::vector<std::string> health;
};
// `what` names the dump in the health notes: "core", "GPU core".
Parsed<OpenedDump> open_dump(const std::filesystem::path& path, const std::string& display,
                             std::string_view what, const DecodeLimits& limits);

// Fails only when not a single byte could be decoded (garbage, wrong format, unreadable, a
// dictionary over the memory limit).
Parsed<Decompressed> decompress_to_private_file(const std::filesystem::path& path,
                                                Compression compression,
                                                const DecodeLimits& limits);

}  // namespace aoti::parsers::coredump
