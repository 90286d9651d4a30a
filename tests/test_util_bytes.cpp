// util's byte-level helpers: the bounds-checked reader every binary parser reads through.
#include <doctest/doctest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>

#include "util/byte_reader.hpp"

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

