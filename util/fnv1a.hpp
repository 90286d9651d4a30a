// FNV-1a, 64-bit: a small, dependency-free hash whose value is the same on every machine and in
// every run (std::hash promises neither). For fingerprints and shard keys, never for secrets.
#pragma once

#include <cstdint>
#include <string_view>

namespace aoti::util {

inline constexpr std::uint64_t k_fnv1a_offset_basis = 0xcbf29ce484222325ull;

// Continues from `hash`, so that several pieces can be hashed as one text.
constexpr std::uint64_t fnv1a(std::string_view text, std::uint64_t hash = k_fnv1a_offset_basis) {
  for (const char ch : text) {
    hash ^= static_cast<unsigned char>(ch);
    hash *= 0x100000001b3ull;
  }
  return hash;
}

}  // namespace aoti::util
