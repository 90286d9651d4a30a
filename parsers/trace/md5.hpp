// Incremental MD5 (RFC 1321), only to check a trace payload against its `has_payload` digest:
// the trace writer uses MD5 as a checksum, not for security, and no crypto library is linked here.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace aoti::parsers::trace {

class Md5 {
 public:
  void update(std::string_view bytes);
  std::string hex_digest();  // finishes the digest: call once

 private:
  void block(const unsigned char* data);

  std::array<std::uint32_t, 4> m_state = {0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u};
  std::array<unsigned char, 64> m_buffer{};
  std::uint64_t m_length = 0;  // bytes fed so far
};

}  // namespace aoti::parsers::trace
