// Hexadecimal text, in the two forms every reader prints: a byte string as digits (build-ids,
// digests) and a number as a C literal (addresses and offsets, as gdb and eu-stack print them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include <fmt/format.h>

namespace aoti::util {

// Two lowercase digits per byte, no prefix: "0a1bff".
inline std::string hex_bytes(std::span<const std::byte> bytes) {
  static constexpr char k_digits[] = "0123456789abcdef";
  std::string text;
  text.reserve(bytes.size() * 2);
  for (const std::byte byte : bytes) {
    text += k_digits[std::to_integer<unsigned>(byte) >> 4];
    text += k_digits[std::to_integer<unsigned>(byte) & 0xf];
  }
  return text;
}

// The bytes a C library hands out as unsigned char (libdwfl's build-ids).
inline std::string hex_bytes(const void* data, std::size_t size) {
  return hex_bytes({static_cast<const std::byte*>(data), size});
}

// "0x1f"; with `min_digits`, zero-padded: hex_literal(31, 16) is "0x000000000000001f".
inline std::string hex_literal(std::uint64_t value, int min_digits = 1) {
  return fmt::format("0x{:0{}x}", value, min_digits);
}

}  // namespace aoti::util
