// Decoding compressed cores within limits: output size, and the xz decoder's memory; multi-block
// xz decoded block by block on several threads, with what a sequential decoder would give.
#include <doctest/doctest.h>

#include <lzma.h>
#include <unistd.h>
#include <zstd.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "parsers/coredump/decompress.hpp"
#include "parsers/coredump/lzma2_decoder.hpp"
#include "support.hpp"

namespace {

using aoti::parsers::coredump::Compression;
using aoti::parsers::coredump::decompress_to_private_file;
using aoti::parsers::coredump::Lzma2Decoder;

std::string xz_compress(const std::string& data) {
  std::string out(lzma_stream_buffer_bound(data.size()), '\0');
  std::size_t written = 0;
  REQUIRE(lzma_easy_buffer_encode(0, LZMA_CHECK_CRC32, nullptr,
                                  reinterpret_cast<const std::uint8_t*>(data.data()), data.size(),
                                  reinterpret_cast<std::uint8_t*>(out.data()), &written,
                                  out.size()) == LZMA_OK);
  out.resize(written);
  return out;
}

// The same stream, its block header now declaring a 1 GiB LZMA2 dictionary (a hostile stream
// can declare one without ever using it): the props byte, then the header's CRC32.
std::string with_huge_dictionary(std::string xz) {
  constexpr std::size_t k_block = 12;  // after the stream header
  const std::size_t header_size = (static_cast<unsigned char>(xz[k_block]) + 1) * 4;
  const auto flags = static_cast<unsigned char>(xz[k_block + 1]);
  REQUIRE((flags & 3) == 0);  // one filter
  std::size_t at = k_block + 2;
  // Skip the compressed and uncompressed sizes the flags say are present (multibyte integers).
  for (const unsigned present : {0x40u, 0x80u})
    if (flags & present)
      while (static_cast<unsigned char>(xz[at++]) & 0x80) continue;
  REQUIRE(xz[at] == '\x21');      // LZMA2
  REQUIRE(xz[at + 1] == '\x01');  // one props byte
  xz[at + 2] = 36;                // 2 << (36 / 2 + 11) = 1 GiB
  const std::uint32_t crc =
      lzma_crc32(reinterpret_cast<const std::uint8_t*>(xz.data() + k_block), header_size - 4, 0);
  std::memcpy(xz.data() + k_block + header_size - 4, &crc, sizeof crc);
  return xz;
}

// `data` as `xz -T2 --block-size` writes it: blocks of `block_size` bytes, each header holding the
// block's sizes, and the index at the end.
std::string xz_compress_blocks(const std::string& data, std::uint64_t block_size) {
  lzma_mt options{};
  options.threads = 2;
  options.block_size = block_size;
  options.preset = 0;
  options.check = LZMA_CHECK_CRC64;
  lzma_stream stream = LZMA_STREAM_INIT;
  REQUIRE(lzma_stream_encoder_mt(&stream, &options) == LZMA_OK);
  // Data without repeats grows a little in each block (headers, uncompressed chunks).
  std::string out(lzma_stream_buffer_bound(data.size()) + data.size() / 8, '\0');
  stream.next_in = reinterpret_cast<const std::uint8_t*>(data.data());
  stream.avail_in = data.size();
  stream.next_out = reinterpret_cast<std::uint8_t*>(out.data());
  stream.avail_out = out.size();
  lzma_ret ret = LZMA_OK;
  while (ret == LZMA_OK) ret = lzma_code(&stream, LZMA_FINISH);
  REQUIRE(ret == LZMA_STREAM_END);
  out.resize(out.size() - stream.avail_out);
  lzma_end(&stream);
  return out;
}

// Bytes no block repeats, with whole zero pages between them as in a core (`holes`) or without,
// so that each compressed block is about as large as its data.
std::string varied_bytes(std::size_t size, bool holes = true) {
  std::string data(size, '\0');
  std::uint32_t state = 1;
  for (std::size_t i = 0; i < size; ++i) {
    if (holes && (i / 4096) % 3 == 2) continue;
    state = state * 1103515245u + 12345u;
    data[i] = static_cast<char>(state >> 24);
  }
  return data;
}

std::string contents(int fd, std::uint64_t size) {
  std::string out(size, '\0');
  REQUIRE(::pread(fd, out.data(), out.size(), 0) == static_cast<ssize_t>(size));
  return out;
}

// Where the xz index of a one-stream file lies: after it come the stream footer's CRC32, backward
// size (the index's size / 4 - 1), flags and magic.
std::pair<std::size_t, std::size_t> index_span(const std::string& xz) {
  std::uint32_t backward = 0;
  std::memcpy(&backward, xz.data() + xz.size() - 8, sizeof backward);
  const std::size_t size = (backward + 1) * 4;
  return {xz.size() - 12 - size, size};
}

}  // namespace

TEST_CASE("decompress: a multi-block xz core decodes on several threads to the same bytes") {
  aoti::test::TempDir dir;
  const auto path = dir.path / "core.xz";
  const std::string data = varied_bytes((3 << 20) + 1234);
  aoti::test::write_file(path, xz_compress_blocks(data, 256 << 10));
  auto parallel = decompress_to_private_file(path, Compression::xz, {.threads = 2});
  REQUIRE(parallel);
  CHECK(parallel->size == data.size());
  CHECK(parallel->problem.empty());
  CHECK(parallel->one_thread_reason.empty());
  CHECK(contents(parallel->file.get(), parallel->size) == data);
  auto one = decompress_to_private_file(path, Compression::xz, {.threads = 1});
  REQUIRE(one);
  CHECK(contents(one->file.get(), one->size) == data);
  CHECK(one->one_thread_reason == "one decoder thread was asked for");
  auto capped =
      decompress_to_private_file(path, Compression::xz, {.max_bytes = 1 << 20, .threads = 2});
  REQUIRE(capped);
  CHECK(capped->size == 1u << 20);
  CHECK(capped->problem == "decompression stopped at the configured limit of 1 MiB");
  CHECK(contents(capped->file.get(), capped->size) == data.substr(0, 1 << 20));
}

TEST_CASE("decompress: a single xz block, or zstd, is decoded on one thread, and says why") {
  aoti::test::TempDir dir;
  const auto path = dir.path / "core.xz";
  aoti::test::write_file(path, xz_compress(std::string(1 << 20, 'c')));
  auto single = decompress_to_private_file(path, Compression::xz, {.threads = 2});
  REQUIRE(single);
  CHECK(single->size == 1u << 20);
  CHECK(single->one_thread_reason == "it is a single xz block");
  const auto zst = dir.path / "core.zst";
  const std::string data = varied_bytes(1 << 20);
  std::string compressed(ZSTD_compressBound(data.size()), '\0');
  compressed.resize(
      ZSTD_compress(compressed.data(), compressed.size(), data.data(), data.size(), 1));
  aoti::test::write_file(zst, compressed);
  auto zstd = decompress_to_private_file(zst, Compression::zstd, {.threads = 2});
  REQUIRE(zstd);
  CHECK(contents(zstd->file.get(), zstd->size) == data);
  CHECK(zstd->one_thread_reason == "zstd frames are decoded in sequence");
}

TEST_CASE(
    "decompress: a broken block ends the core where it breaks, as a sequential decoder would") {
  aoti::test::TempDir dir;
  const auto path = dir.path / "core.xz";
  const std::string data = varied_bytes(2 << 20, false);
  std::string xz = xz_compress_blocks(data, 256 << 10);
  std::string broken = xz;
  const auto [index_at, index_size] = index_span(xz);
  REQUIRE(index_size > 0);
  // Bytes in the middle of block 3: blocks of data without repeats compress to about their own
  // 256 KiB, so 2.5 x 256 KiB into the file is inside it. Such data is stored in uncompressed
  // chunks, so only the block's CRC64 at its end finds the change, after its bytes were handed
  // out: like the sequential decoder, the dump then ends with that block.
  for (std::size_t at = 640 << 10; at < (640 << 10) + 64; ++at) broken[at] = '\x55';
  REQUIRE((640u << 10) + 64 < index_at);
  aoti::test::write_file(path, broken);
  auto decoded = decompress_to_private_file(path, Compression::xz, {.threads = 2});
  REQUIRE(decoded);
  CHECK(decoded->problem == "corrupt xz data");
  CHECK(decoded->size >= 512u << 10);  // blocks 1 and 2 are whole
  CHECK(decoded->size <= 768u << 10);  // nothing of blocks 4 and on
  CHECK(contents(decoded->file.get(), 512 << 10) == data.substr(0, 512 << 10));
  auto sequential = decompress_to_private_file(path, Compression::xz, {.threads = 1});
  REQUIRE(sequential);
  CHECK(sequential->problem == decoded->problem);
  CHECK(sequential->size == decoded->size);
}

TEST_CASE("decompress: a multi-block xz file cut inside a block keeps the blocks before the cut") {
  aoti::test::TempDir dir;
  const auto path = dir.path / "core.xz";
  const std::string data = varied_bytes(2 << 20, false);
  // Cut in the middle of block 3 (blocks of data without repeats compress to about 256 KiB): the
  // index at the end is gone, so the stream decoder reads it, as far as it goes.
  aoti::test::write_file(path, xz_compress_blocks(data, 256 << 10).substr(0, 640 << 10));
  auto decoded = decompress_to_private_file(path, Compression::xz, {.threads = 2});
  REQUIRE(decoded);
  CHECK(decoded->problem == "the xz stream ends early (the file was cut)");
  CHECK(decoded->size >= 512u << 10);
  CHECK(decoded->size < 768u << 10);
  CHECK(contents(decoded->file.get(), decoded->size) == data.substr(0, decoded->size));
}

TEST_CASE("decompress: an index that lies about a block's size is a problem, not a crash") {
  aoti::test::TempDir dir;
  const auto path = dir.path / "core.xz";
  const std::string data = varied_bytes(1 << 20);
  std::string xz = xz_compress_blocks(data, 256 << 10);
  const auto [index_at, index_size] = index_span(xz);
  // The index: indicator 0, record count, then per block its unpadded and uncompressed sizes
  // (multibyte integers), padding, CRC32. Make the second block claim one more page of output,
  // and sign the index again: lzma_file_info accepts it, the block's own header disagrees.
  std::size_t at = index_at + 2;
  const auto skip_integer = [&] {
    while (static_cast<unsigned char>(xz[at++]) & 0x80) continue;
  };
  skip_integer();                                               // block 1: unpadded
  skip_integer();                                               // block 1: uncompressed
  skip_integer();                                               // block 2: unpadded
  REQUIRE(xz.substr(at, 3) == std::string("\x80\x80\x10", 3));  // 256 KiB
  xz[at + 1] = '\xa0';                                          // 256 KiB + 4 KiB
  const std::uint32_t crc =
      lzma_crc32(reinterpret_cast<const std::uint8_t*>(xz.data() + index_at), index_size - 4, 0);
  std::memcpy(xz.data() + index_at + index_size - 4, &crc, sizeof crc);
  aoti::test::write_file(path, xz);
  auto decoded = decompress_to_private_file(path, Compression::xz, {.threads = 2});
  REQUIRE(decoded);
  CHECK(decoded->size == 256u << 10);
  CHECK(decoded->problem == "the xz index does not match the block it describes");
  CHECK(contents(decoded->file.get(), decoded->size) == data.substr(0, 256 << 10));
}

TEST_CASE("decompress: blocks decode no more at once than the memory budget holds") {
  aoti::test::TempDir dir;
  const auto path = dir.path / "core.xz";
  const std::string data = varied_bytes(2 << 20);
  aoti::test::write_file(path, xz_compress_blocks(data, 256 << 10));
  // What one block decoder of preset 0 takes: our LZMA2 decoder's dictionary and chunk room.
  lzma_options_lzma lzma2{};
  REQUIRE_FALSE(lzma_lzma_preset(&lzma2, 0));
  const std::uint64_t one_block = Lzma2Decoder::memory_usage(lzma2.dict_size);
  // Room for one decoder at a time: the threads take turns, and every block is decoded.
  auto turns = decompress_to_private_file(path, Compression::xz,
                                          {.threads = 2, .max_memory = one_block * 3 / 2});
  REQUIRE(turns);
  CHECK(turns->problem.empty());
  CHECK(contents(turns->file.get(), turns->size) == data);
  // No room for one: refused, as the stream decoder refuses.
  auto refused = decompress_to_private_file(path, Compression::xz,
                                            {.threads = 2, .max_memory = one_block / 2});
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message == "cannot decompress xz data: xz memory limit reached");
}

TEST_CASE("decompress: output stops at max_bytes, and says so") {
  aoti::test::TempDir dir;
  const auto path = dir.path / "core.xz";
  aoti::test::write_file(path, xz_compress(std::string(3 << 20, 'c')));
  auto whole = decompress_to_private_file(path, Compression::xz, {});
  REQUIRE(whole);
  CHECK(whole->size == 3u << 20);
  CHECK(whole->problem.empty());
  auto capped = decompress_to_private_file(path, Compression::xz, {.max_bytes = 1 << 20});
  REQUIRE(capped);
  CHECK(capped->size == 1u << 20);
  CHECK(capped->problem == "decompression stopped at the configured limit of 1 MiB");
}

TEST_CASE(
    "decompress: an xz dictionary over the memory limit is refused, not allocated; a larger budget "
    "reads it") {
  aoti::test::TempDir dir;
  const auto path = dir.path / "core.xz";
  aoti::test::write_file(path, with_huge_dictionary(xz_compress(std::string(4096, 'c'))));
  auto refused = decompress_to_private_file(path, Compression::xz, {});
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message == "cannot decompress xz data: xz memory limit reached");
  auto allowed = decompress_to_private_file(path, Compression::xz, {.max_memory = 2ull << 30});
  REQUIRE(allowed);
  CHECK(allowed->size == 4096);
}
