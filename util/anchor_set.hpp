// Finds which of a fixed set of substrings occur in a line, in one pass over the line whatever the
// number of substrings: a table keyed by one rare two-byte pair of each substring rejects almost
// every position at once (keying on the first two bytes would stop at every "in", "re", "te").
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace aoti::util {

class AnchorSet {
 public:
  struct Anchor {
    std::string_view text;  // at least two bytes
    std::uint64_t flag;
  };
  explicit AnchorSet(std::vector<Anchor> anchors);
  // The flags of every anchor that occurs in `line`, or-ed together.
  std::uint64_t find_all(std::string_view line) const;

 private:
  struct Candidate {
    std::uint8_t anchor;
    std::uint8_t offset;  // of the key pair inside the anchor
  };
  std::vector<Anchor> m_anchors;
  std::array<std::uint64_t, 65536 / 64> m_pairs{};       // bit per key pair
  std::array<std::vector<Candidate>, 256> m_by_first{};  // candidates by the key pair's first byte
};

}  // namespace aoti::util
