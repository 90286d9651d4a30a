// Bounds-checked reads of little-endian fields from bytes already in memory, in bloaty's shape
// (its ReadFixed, StrictSubstr and CheckedAdd): every offset and length in a file is a claim, so
// every access is checked, and a failed check throws ReadError — one exception type, which each
// parser catches at its boundary and turns into its ParseError. Fields are assembled byte by
// byte, so the result does not depend on the host's byte order.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

namespace aoti::util {

// A read outside the bytes a reader holds, or a failed read of a file.
struct ReadError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// a + b; throws when the sum does not fit (a forged offset plus a forged size).
inline std::uint64_t checked_add(std::uint64_t a, std::uint64_t b) {
  if (a > std::numeric_limits<std::uint64_t>::max() - b)
    throw ReadError("integer overflow in addition");
  return a + b;
}

// The `count` bytes at `offset` of `bytes`; throws when any of them lies outside.
inline std::span<const std::byte> strict_substr(std::span<const std::byte> bytes,
                                                std::uint64_t offset, std::uint64_t count) {
  if (checked_add(offset, count) > bytes.size())
    throw ReadError("region out-of-bounds: " + std::to_string(count) + " bytes at offset " +
                    std::to_string(offset) + " of " + std::to_string(bytes.size()));
  return bytes.subspan(static_cast<std::size_t>(offset), static_cast<std::size_t>(count));
}

// The little-endian integer at the start of `bytes`, which then skip past it; throws when
// `bytes` is shorter than the integer.
template <std::integral T>
T read_fixed(std::span<const std::byte>& bytes) {
  if (bytes.size() < sizeof(T))
    throw ReadError("premature EOF: a " + std::to_string(sizeof(T)) + "-byte field with " +
                    std::to_string(bytes.size()) + " bytes left");
  std::make_unsigned_t<T> value = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i)
    value |= static_cast<std::make_unsigned_t<T>>(std::to_integer<unsigned>(bytes[i])) << (8 * i);
  bytes = bytes.subspan(sizeof(T));
  return static_cast<T>(value);
}

// A view of bytes that reads fields at offsets, each access checked as above.
class ByteView {
 public:
  ByteView() = default;
  explicit ByteView(std::span<const std::byte> bytes) : m_bytes(bytes) {}

  std::span<const std::byte> bytes() const { return m_bytes; }
  std::uint64_t size() const { return m_bytes.size(); }
  // Whether [offset, offset + count) lies inside; never throws.
  bool has(std::uint64_t offset, std::uint64_t count) const {
    return offset <= m_bytes.size() && count <= m_bytes.size() - offset;
  }

  template <std::integral T>
  T read(std::uint64_t offset) const {
    auto field = strict_substr(m_bytes, offset, sizeof(T));
    return read_fixed<T>(field);
  }
  std::uint8_t u8(std::uint64_t offset) const { return read<std::uint8_t>(offset); }
  std::uint16_t u16(std::uint64_t offset) const { return read<std::uint16_t>(offset); }
  std::uint32_t u32(std::uint64_t offset) const { return read<std::uint32_t>(offset); }
  std::uint64_t u64(std::uint64_t offset) const { return read<std::uint64_t>(offset); }

  ByteView sub(std::uint64_t offset, std::uint64_t count) const {
    return ByteView(strict_substr(m_bytes, offset, count));
  }
  // Exactly `count` bytes as text.
  std::string_view text(std::uint64_t offset, std::uint64_t count) const {
    const auto bytes = strict_substr(m_bytes, offset, count);
    return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
  }
  // The NUL-terminated string at `offset`; one that runs off the end is cut there. Throws only
  // when `offset` itself is outside.
  std::string_view c_string(std::uint64_t offset) const {
    if (offset >= m_bytes.size())
      throw ReadError("string at offset " + std::to_string(offset) + " is past the end (" +
                      std::to_string(m_bytes.size()) + " bytes)");
    const char* begin = reinterpret_cast<const char*>(m_bytes.data()) + offset;
    const std::size_t available = m_bytes.size() - static_cast<std::size_t>(offset);
    const void* nul = std::memchr(begin, '\0', available);
    return {begin,
            nul ? static_cast<std::size_t>(static_cast<const char*>(nul) - begin) : available};
  }

 private:
  std::span<const std::byte> m_bytes;
};

}  // namespace aoti::util
