// Decoding compressed cores within limits: output size, and the xz decoder's memory.
#include <doctest/doctest.h>

#include <lzma.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "parsers/coredump/decompress.hpp"
#include "support.hpp"

namespace {

using aoti::parsers::coredump::Compression;
using aoti::parsers::coredump::decompress_to_private_file;

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

}  // namespace

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
