// What the coredump decoders share (xz_decode.cpp, zstd_decode.cpp, decompress.cpp): the
// compressed file read in chunks, the decoded bytes written sparse into the private file, and where
// a dump ends: where its own ELF headers say, or at DecodeLimits' byte limit. Internal to
// parsers/coredump; split from decompress.cpp so that each container format has its own file.
#pragma once

#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "parsers/parse_error.hpp"
#include "util/errno_text.hpp"

namespace aoti::parsers::coredump {

constexpr std::size_t k_chunk = 1 << 20;

// Reads the compressed file in chunks and hands each to `feed(data, size, at_end)`, which
// returns an error text to stop ("" to go on).
template <class Feed>
Parsed<void> for_each_chunk(int fd, Feed&& feed) {
  std::vector<unsigned char> input(k_chunk);
  for (;;) {
    const ssize_t got = ::read(fd, input.data(), input.size());
    if (got < 0) {
      if (errno == EINTR) continue;
      return fail(std::string("cannot read: ") + util::errno_text(errno));
    }
    if (!feed(input.data(), static_cast<std::size_t>(got), got == 0)) return {};
    if (got == 0) return {};
  }
}

// Where an ELF file whose first bytes are `head` ends by its own headers: the furthest byte that
// its program headers, section headers or their tables reach. nullopt while `head` is too short to
// say (more must be decoded first), 0 when it never will (not ELF64, tables past the first MiB):
// then only DecodeLimits bounds the decoding.
constexpr std::size_t k_max_head = 1 << 20;
std::optional<std::uint64_t> declared_end(const std::string& head);

// Why decoding stopped at `limit` while the stream went on.
std::string cut_problem(bool headers_end, std::uint64_t limit, std::uint64_t max_bytes);

// The private file a decoder of one stream (decode_xz, decode_zstd) writes into, in order.
struct Sink {
  int fd;
  std::uint64_t max_bytes;
  std::uint64_t size = 0;
  std::string problem;
  bool capped = false;
  bool past_declared_end = false;
  // The first bytes decoded, until the ELF headers in them say where the dump ends: a stream that
  // goes on past that (50 GiB of zeros after a real core's headers) is cut there, instead of
  // decoding for minutes what no header points to.
  std::string head;
  std::optional<std::uint64_t> end;

  // Writes decoded bytes, up to the cap; false when the caller must stop.
  bool take(const unsigned char* data, std::size_t count);
};

}  // namespace aoti::parsers::coredump
