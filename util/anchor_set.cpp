#include "util/anchor_set.hpp"

#include <cstring>
#include <utility>

namespace aoti::util {

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
      if (rarity(text[offset]) + rarity(text[offset + 1]) >
          rarity(text[best]) + rarity(text[best + 1]))
        best = offset;
    const unsigned pair = text[best] << 8 | text[best + 1];
    m_pairs[pair / 64] |= std::uint64_t{1} << (pair % 64);
    m_by_first[text[best]].push_back(
        {static_cast<std::uint8_t>(i), static_cast<std::uint8_t>(best)});
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
      if (anchor.text.size() <= size - start &&
          std::memcmp(data + start, anchor.text.data(), anchor.text.size()) == 0)
        found |= anchor.flag;
    }
  }
  return found;
}

}  // namespace aoti::util
