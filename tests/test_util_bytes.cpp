// util's byte-level helpers: the bounds-checked reader every binary parser reads through, hex
// text, the FNV-1a hash and byte counts as text.
#include <doctest/doctest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>

#include "util/byte_reader.hpp"
#include "util/fnv1a.hpp"
#include "util/format_size.hpp"
#include "util/hex.hpp"

namespace {

using aoti::util::ByteView;
using aoti::util::ReadError;

template <std::size_t N>
std::array<std::byte, N> bytes_of(const unsigned char (&values)[N]) {
  std::array<std::byte, N> bytes{};
  for (std::size_t i = 0; i < N; ++i) bytes[i] = static_cast<std::byte>(values[i]);
  return bytes;
}

}  // namespace

TEST_CASE("checked_add refuses a sum that wraps") {
  CHECK(aoti::util::checked_add(1, 2) == 3);
  CHECK(aoti::util::checked_add(std::numeric_limits<std::uint64_t>::max(), 0) ==
        std::numeric_limits<std::uint64_t>::max());
  CHECK_THROWS_AS(aoti::util::checked_add(std::numeric_limits<std::uint64_t>::max(), 1), ReadError);
}

TEST_CASE("fields are little-endian whatever the host, and never read past the end") {
  const auto bytes = bytes_of({0x01, 0x02, 0x03, 0x04, 0xff, 0xff, 0xff, 0xff, 0x00});
  const ByteView view(bytes);
  CHECK(view.u8(0) == 0x01);
  CHECK(view.u16(0) == 0x0201);
  CHECK(view.u32(0) == 0x04030201u);
  CHECK(view.u64(1) == 0x00ffffffff040302ull);
  CHECK(view.read<std::int32_t>(4) == -1);
  CHECK_THROWS_WITH_AS(view.u64(2), "region out-of-bounds: 8 bytes at offset 2 of 9", ReadError);
  // An offset so large that offset + size wraps around is still out of bounds.
  CHECK_THROWS_AS(view.u32(std::numeric_limits<std::uint64_t>::max() - 1), ReadError);

  std::span<const std::byte> cursor(bytes);
  CHECK(aoti::util::read_fixed<std::uint32_t>(cursor) == 0x04030201u);
  CHECK(cursor.size() == 5);
  CHECK(aoti::util::read_fixed<std::uint32_t>(cursor) == 0xffffffffu);
  CHECK_THROWS_WITH_AS(aoti::util::read_fixed<std::uint16_t>(cursor),
                       "premature EOF: a 2-byte field with 1 bytes left", ReadError);
}

TEST_CASE("sub-ranges and strings stay inside the bytes") {
  const auto bytes = bytes_of({'a', 'b', 0, 'c', 'd'});
  const ByteView view(bytes);
  CHECK(view.c_string(0) == "ab");
  CHECK(view.c_string(2).empty());
  CHECK(view.c_string(3) == "cd");  // runs off the end: cut there
  CHECK_THROWS_AS(view.c_string(5), ReadError);
  CHECK(view.text(3, 2) == "cd");
  CHECK_THROWS_AS(view.text(3, 3), ReadError);
  CHECK(view.sub(1, 3).size() == 3);
  CHECK(view.sub(1, 3).c_string(0) == "b");
  CHECK_THROWS_AS(view.sub(4, 2), ReadError);
  CHECK(view.has(5, 0));
  CHECK_FALSE(view.has(6, 0));
}

TEST_CASE("hex: byte strings as digits, numbers as C literals") {
  const auto bytes = bytes_of({0x00, 0x0a, 0xff, 0x10});
  CHECK(aoti::util::hex_bytes(bytes) == "000aff10");
  CHECK(aoti::util::hex_bytes(bytes.data(), 2) == "000a");
  CHECK(aoti::util::hex_bytes(std::span<const std::byte>()).empty());
  CHECK(aoti::util::hex_literal(0) == "0x0");
  CHECK(aoti::util::hex_literal(0x7f12) == "0x7f12");
  CHECK(aoti::util::hex_literal(31, 16) == "0x000000000000001f");
  CHECK(aoti::util::hex_literal(0xffffffffffffffffull, 16) == "0xffffffffffffffff");
}

TEST_CASE("fnv1a: the published 64-bit test vectors, and hashing in pieces") {
  static_assert(aoti::util::fnv1a("") == 0xcbf29ce484222325ull);
  CHECK(aoti::util::fnv1a("a") == 0xaf63dc4c8601ec8cull);
  CHECK(aoti::util::fnv1a("foobar") == 0x85944171f73967e8ull);
  CHECK(aoti::util::fnv1a("bar", aoti::util::fnv1a("foo")) == aoti::util::fnv1a("foobar"));
}

TEST_CASE(
    "sizes: exact in the largest unit, else one decimal; cores in whole MiB; regions "
    "approximately") {
  using aoti::util::format_size;
  CHECK(format_size(0) == "0 bytes");
  CHECK(format_size(1) == "1 byte");
  CHECK(format_size(900) == "900 bytes");
  CHECK(format_size(1024) == "1 KiB");
  CHECK(format_size(1536) == "1.5 KiB");
  CHECK(format_size(64ull << 20) == "64 MiB");
  CHECK(format_size((1ull << 30) + (1ull << 29)) == "1.5 GiB");
  CHECK(format_size(4ull << 30) == "4 GiB");
  CHECK(aoti::util::format_mib((1 << 19) - 1) == "0 MiB");
  CHECK(aoti::util::format_mib(1 << 19) == "1 MiB");
  CHECK(aoti::util::format_mib(12ull << 20) == "12 MiB");
  using aoti::util::format_approximate_size;
  CHECK(format_approximate_size(4096) == "4 KiB");
  CHECK(format_approximate_size(1535) == "1 KiB");
  CHECK(format_approximate_size(8ull << 20) == "8 MiB");
  CHECK(format_approximate_size((2ull << 30) + (1ull << 29)) == "2.5 GiB");
  CHECK(format_approximate_size(128ull << 40) == "128.0 TiB");
}
