// Compressed cores (xz as shipped in bug reports and our corpus, zstd as systemd-coredump
// stores them), decoded into a private temporary file that the ELF reader then maps like any core:
// xz blocks by our LZMA2 decoder (lzma2_decoder.hpp) with liblzma around it (xz_decode.cpp), zstd
// by libzstd (zstd_decode.cpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <thread>
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
  // Why the stream was decoded on one thread ("" when its blocks were decoded in parallel): a
  // single xz block or a zstd stream can only be decoded from its start to its end.
  std::string one_thread_reason;
};

// What decoding one compressed core may take.
struct DecodeLimits {
  // Decoding stops here (a `problem` says so): a core's size is the process's, and a crafted
  // stream could otherwise fill the disk.
  std::uint64_t max_bytes = 64ull << 30;
  // xz only: decoder threads, used by multi-block streams (xz -T); a single-block stream decodes
  // on one thread whatever this says. All cores by default: a core is analyzed only once it is
  // decoded, and a scan's workers rarely decode cores at the same time.
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
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
  std::string one_thread_reason;  // as Decompressed's
};
// Why a dump (a core or a GPU core) that was cut while it was read is not used: its diagnostic
// after the name. Both readers map the file open_dump gives them (util/mapping_guard.hpp).
inline constexpr std::string_view k_cut_while_read =
    "the file shrank while it was read (another process truncated or rewrote it); what lay past "
    "its new end read as zeros, so nothing read from it is used";

// `what` names the dump in the health notes: "core", "GPU core".
Parsed<OpenedDump> open_dump(const std::filesystem::path& path, const std::string& display,
                             std::string_view what, const DecodeLimits& limits);

// Fails only when not a single byte could be decoded (garbage, wrong format, unreadable, a
// dictionary over the memory limit).
Parsed<Decompressed> decompress_to_private_file(const std::filesystem::path& path,
                                                Compression compression,
                                                const DecodeLimits& limits);

}  // namespace aoti::parsers::coredump
