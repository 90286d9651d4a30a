#include "parsers/coredump/decode_io.hpp"
#include "parsers/coredump/private_file.hpp"

#include <algorithm>
#include <cstring>

namespace aoti::parsers::coredump {

std::optional<std::uint64_t> declared_end(const std::string& head) {
  const auto u16 = [&](std::uint64_t at) {
    std::uint16_t v = 0;
    std::memcpy(&v, head.data() + at, 2);
    return v;
  };
  const auto u32 = [&](std::uint64_t at) {
    std::uint32_t v = 0;
    std::memcpy(&v, head.data() + at, 4);
    return v;
  };
  const auto u64 = [&](std::uint64_t at) {
    std::uint64_t v = 0;
    std::memcpy(&v, head.data() + at, 8);
    return v;
  };
  const bool complete = head.size() >= k_max_head;
  // Whether [at, at + size) is in `head`: true, false (never will be), or nullopt (decode more).
  const auto have = [&](std::uint64_t at, std::uint64_t size) -> std::optional<bool> {
    if (at > k_max_head || size > k_max_head - at) return false;
    if (at + size <= head.size()) return true;
    if (complete) return false;
    return std::nullopt;
  };
  if (head.size() < 64) return complete ? std::optional<std::uint64_t>(0) : std::nullopt;
  if (std::memcmp(head.data(),
                  "\x7f"
                  "ELF\x02\x01",
                  6) != 0)
    return 0;
  const std::uint64_t phoff = u64(0x20), shoff = u64(0x28);
  std::uint64_t phnum = u16(0x38), shnum = u16(0x3c);
  if ((phnum != 0 && u16(0x36) != 56) || (shoff != 0 && u16(0x3a) != 64)) return 0;
  // PN_XNUM and SHN_UNDEF counts: the real ones are in section header 0.
  if (phnum == 0xffff || (shnum == 0 && shoff != 0)) {
    if (shoff == 0) return 0;
    const auto first = have(shoff, 64);
    if (!first) return std::nullopt;
    if (!*first) return 0;
    if (phnum == 0xffff) phnum = u32(shoff + 0x2c);
    if (shnum == 0) shnum = u64(shoff + 0x20);
  }
  if (phnum > k_max_head / 56 || shnum > k_max_head / 64) return 0;  // tables past the first MiB
  const auto phdrs = have(phoff, phnum * 56), shdrs = have(shoff, shnum * 64);
  if (!phdrs || !shdrs) return std::nullopt;
  if (!*phdrs || !*shdrs) return 0;
  std::uint64_t end = std::max<std::uint64_t>({64, phoff + phnum * 56, shoff + shnum * 64});
  const auto reach = [&](std::uint64_t offset, std::uint64_t size) {
    end = std::max(end, offset > UINT64_MAX - size ? UINT64_MAX : offset + size);
  };
  for (std::uint64_t i = 0; i < phnum; ++i)
    reach(u64(phoff + i * 56 + 8), u64(phoff + i * 56 + 32));
  for (std::uint64_t i = 0; i < shnum; ++i)
    if (u32(shoff + i * 64 + 4) != 8)  // SHT_NOBITS takes no room in the file
      reach(u64(shoff + i * 64 + 24), u64(shoff + i * 64 + 32));
  return end;
}

std::string cut_problem(bool headers_end, std::uint64_t limit, std::uint64_t max_bytes) {
  return headers_end ? "cut at " + std::to_string(limit) +
                           " bytes, where its ELF headers say it ends: the stream goes on past "
                           "that and the rest was not decoded"
                     : "decompression stopped at the configured limit of " +
                           std::to_string(max_bytes >> 20) + " MiB";
}

bool Sink::take(const unsigned char* data, std::size_t count) {
  if (!end) {
    head.append(reinterpret_cast<const char*>(data),
                std::min(count, k_max_head - std::min(head.size(), k_max_head)));
    end = declared_end(head);
    if (end) std::string().swap(head);
  }
  const bool headers_end = end && *end != 0 && *end < max_bytes;
  const std::uint64_t limit = headers_end ? *end : max_bytes;
  const std::uint64_t room = limit - std::min(size, limit);
  const std::size_t keep = static_cast<std::size_t>(std::min<std::uint64_t>(room, count));
  if (auto written = write_sparse(fd, {data, keep}); !written) {
    problem = written.error().message;
    return false;
  }
  size += keep;
  if (keep < count) {
    capped = true;
    past_declared_end = headers_end;
    problem = cut_problem(headers_end, limit, max_bytes);
    return false;
  }
  return true;
}

}  // namespace aoti::parsers::coredump
