// xz cores: decoded block by block on several threads when the stream's index can be read (blocks
// whose only filter is LZMA2 by our own decoder, lzma2_decoder.hpp; the others by liblzma), else by
// liblzma's threaded stream decoder. decompress.cpp picks between them. Internal to
// parsers/coredump; split from decompress.cpp so that each container format has its own file.
#pragma once

#include <lzma.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "parsers/coredump/decode_io.hpp"
#include "parsers/coredump/decompress.hpp"
#include "parsers/parse_error.hpp"
#include "util/fd.hpp"

namespace aoti::parsers::coredump {

// One block of an xz file, as its stream's index records it.
struct XzBlock {
  std::uint64_t file_offset = 0;  // of its header, in the compressed file
  std::uint64_t total_size = 0;   // header, compressed data, padding and check
  std::uint64_t unpadded_size = 0;
  std::uint64_t offset = 0;  // of its first decoded byte, in the dump
  std::uint64_t size = 0;    // decoded bytes
  lzma_check check = LZMA_CHECK_NONE;
};

// The blocks of the xz file `fd`, from the indexes at its end (lzma_file_info reads only the stream
// footers and indexes, seeking back from the end); nullopt when they cannot be read: a cut file,
// or indexes over the memory limit.
std::optional<std::vector<XzBlock>> xz_blocks(int fd, std::uint64_t max_memory);

// An xz core decoded block by block on up to `limits.threads` threads, each block written at its
// place in `out`. The result is what a sequential decoder gives: the dump ends at the first block
// that fails, or where the ELF headers or the byte limit say.
Parsed<Decompressed> decode_xz_blocks(int in, util::Fd out, const std::vector<XzBlock>& blocks,
                                      const DecodeLimits& limits);

// An xz core decoded as one stream by liblzma into `sink`: what is left when the index cannot be
// read (a cut file).
Parsed<void> decode_xz(int in, Sink& sink, const DecodeLimits& limits);

}  // namespace aoti::parsers::coredump
