#include "parsers/trace/md5.hpp"

#include <cstring>

#include "util/hex.hpp"

namespace aoti::parsers::trace {
namespace {

constexpr std::array<std::uint32_t, 64> k_sines = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391};
constexpr std::array<int, 16> k_shifts = {7, 12, 17, 22, 5, 9,  14, 20,
                                          4, 11, 16, 23, 6, 10, 15, 21};

inline std::uint32_t rotate_left(std::uint32_t value, int bits) {
  return (value << bits) | (value >> (32 - bits));
}

}  // namespace

void Md5::block(const unsigned char* data) {
  std::uint32_t words[16];
  for (int i = 0; i < 16; ++i)
    words[i] = std::uint32_t(data[i * 4]) | std::uint32_t(data[i * 4 + 1]) << 8 |
               std::uint32_t(data[i * 4 + 2]) << 16 | std::uint32_t(data[i * 4 + 3]) << 24;
  std::uint32_t a = m_state[0], b = m_state[1], c = m_state[2], d = m_state[3];
  for (int i = 0; i < 64; ++i) {
    std::uint32_t f = 0;
    int g = 0;
    switch (i / 16) {
      case 0:
        f = (b & c) | (~b & d);
        g = i;
        break;
      case 1:
        f = (d & b) | (~d & c);
        g = (5 * i + 1) % 16;
        break;
      case 2:
        f = b ^ c ^ d;
        g = (3 * i + 5) % 16;
        break;
      default:
        f = c ^ (b | ~d);
        g = (7 * i) % 16;
        break;
    }
    const std::uint32_t rotated =
        rotate_left(a + f + k_sines[i] + words[g], k_shifts[(i / 16) * 4 + i % 4]);
    a = d;
    d = c;
    c = b;
    b = b + rotated;
  }
  m_state[0] += a;
  m_state[1] += b;
  m_state[2] += c;
  m_state[3] += d;
}

void Md5::update(std::string_view bytes) {
  // An empty payload's view may hold a null pointer, which memcpy must not see even for 0 bytes.
  if (bytes.empty()) return;
  auto data = reinterpret_cast<const unsigned char*>(bytes.data());
  std::size_t size = bytes.size();
  std::size_t filled = m_length % 64;
  m_length += size;
  if (filled) {
    const std::size_t take = std::min(size, 64 - filled);
    std::memcpy(m_buffer.data() + filled, data, take);
    data += take;
    size -= take;
    if (filled + take < 64) return;
    block(m_buffer.data());
  }
  for (; size >= 64; data += 64, size -= 64) block(data);
  std::memcpy(m_buffer.data(), data, size);
}

std::string Md5::hex_digest() {
  const std::uint64_t bit_length = m_length * 8;
  static const unsigned char k_padding[64] = {0x80};
  const std::size_t filled = m_length % 64;
  update(std::string_view(reinterpret_cast<const char*>(k_padding),
                          filled < 56 ? 56 - filled : 120 - filled));
  unsigned char length_bytes[8];
  for (int i = 0; i < 8; ++i) length_bytes[i] = static_cast<unsigned char>(bit_length >> (8 * i));
  update(std::string_view(reinterpret_cast<const char*>(length_bytes), 8));
  unsigned char digest[16];  // the state words, each little-endian
  for (std::size_t w = 0; w < 4; ++w)
    for (int i = 0; i < 4; ++i)
      digest[4 * w + i] = static_cast<unsigned char>(m_state[w] >> (8 * i));
  return util::hex_bytes(digest, sizeof digest);
}

}  // namespace aoti::parsers::trace
