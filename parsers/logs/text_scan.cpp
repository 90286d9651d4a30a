#include "parsers/logs/text_scan.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>

namespace aoti::parsers::logs {

namespace {

// Length of the valid UTF-8 sequence at the start of `text`, 0 when it is not one (overlong forms
// and surrogates included, as strict JSON encoders reject them).
std::size_t utf8_length(std::string_view text) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) length = 2;
  else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (text.size() < length) return 0;
  if (byte(1) < low || byte(1) > high) return 0;
  for (std::size_t i = 2; i < length; ++i)
    if (byte(i) < 0x80 || byte(i) > 0xBF) return 0;
  return length;
}
}  // namespace

std::string clean_text(std::string_view text, std::size_t max_bytes) {
  std::string out;
  out.reserve(std::min(text.size(), max_bytes));
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == 0x1B && i + 1 < text.size() && text[i + 1] == '[') {
      std::size_t end = i + 2;
      while (end < text.size() && static_cast<unsigned char>(text[end]) >= 0x20 &&
             static_cast<unsigned char>(text[end]) <= 0x3F)
        ++end;
      if (end < text.size() && static_cast<unsigned char>(text[end]) >= 0x40 &&
          static_cast<unsigned char>(text[end]) <= 0x7E) {
        i = end + 1;
        continue;
      }
    }
    std::size_t length = 1;
    std::string_view piece = "?";
    if (c >= 0x80) {
      length = utf8_length(text.substr(i));
      if (length == 0) length = 1;
      else piece = text.substr(i, length);
    } else if (c >= 0x20 && c != 0x7F) {
      piece = text.substr(i, 1);
    } else if (c == '\t') {
      piece = " ";
    }
    if (out.size() + piece.size() > max_bytes) break;
    out.append(piece);
    i += length;
  }
  return out;
}

namespace {
// How unlikely a byte is in ordinary log text: space and frequent English letters are common,
// punctuation, digits and capitals rare.
int rarity(unsigned char c) {
  constexpr std::string_view k_by_frequency = "etaoinshrdlcumwfgypbvkjxqz";
  if (c == ' ') return 0;
  if (c >= 'a' && c <= 'z') return static_cast<int>(k_by_frequency.find(static_cast<char>(c)));
  return 30;
}
}  // namespace

AnchorSet::AnchorSet(std::vector<Anchor> anchors) : m_anchors(std::move(anchors)) {
  for (std::size_t i = 0; i < m_anchors.size(); ++i) {
    const auto* text = reinterpret_cast<const unsigned char*>(m_anchors[i].text.data());
    std::size_t best = 0;
    for (std::size_t offset = 1; offset + 1 < m_anchors[i].text.size(); ++offset)
      if (rarity(text[offset]) + rarity(text[offset + 1]) > rarity(text[best]) + rarity(text[best + 1]))
        best = offset;
    const unsigned pair = text[best] << 8 | text[best + 1];
    m_pairs[pair / 64] |= std::uint64_t{1} << (pair % 64);
    m_by_first[text[best]].push_back({static_cast<std::uint8_t>(i), static_cast<std::uint8_t>(best)});
  }
}

std::uint64_t AnchorSet::find_all(std::string_view line) const {
  std::uint64_t found = 0;
  const auto* data = reinterpret_cast<const unsigned char*>(line.data());
  const std::size_t size = line.size();
  for (std::size_t i = 0; i + 1 < size; ++i) {
    const unsigned pair = data[i] << 8 | data[i + 1];
    if (!(m_pairs[pair / 64] >> (pair % 64) & 1)) continue;
    for (const auto candidate : m_by_first[data[i]]) {
      const auto& anchor = m_anchors[candidate.anchor];
      if (i < candidate.offset) continue;
      const std::size_t start = i - candidate.offset;
      if (anchor.text.size() <= size - start && std::memcmp(data + start, anchor.text.data(), anchor.text.size()) == 0)
        found |= anchor.flag;
    }
  }
  return found;
}

}  // namespace aoti::parsers::logs
