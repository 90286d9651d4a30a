// Small, bounds-checked text helpers for the log scanner: every input byte is hostile, so nothing
// here assumes a delimiter is present or that the text is valid UTF-8.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/text.hpp"

namespace aoti::parsers::logs {

// Generic text helpers live in util/text.hpp.
using util::after;
using util::between;
using util::digits_at;
using util::first_word;
using util::identifier_at;
using util::last_word;
using util::to_int;
using util::trim;

// A copy fit for reports: at most `max_bytes`, cut on a character boundary; invalid UTF-8 and
// control characters become '?', ANSI colour sequences are dropped.
std::string clean_text(std::string_view text, std::size_t max_bytes);

// Finds which of a fixed set of substrings occur in a line, in one pass over the line whatever the
// number of substrings: a table keyed by one rare two-byte pair of each substring rejects almost
// every position at once (keying on the first two bytes would stop at every "in", "re", "te").
class AnchorSet {
 public:
  struct Anchor {
    std::string_view text;  // at least two bytes
    std::uint64_t flag;
  };
  explicit AnchorSet(std::vector<Anchor> anchors);
  std::uint64_t find_all(std::string_view line) const;

 private:
  struct Candidate {
    std::uint8_t anchor;
    std::uint8_t offset;  // of the key pair inside the anchor
  };
  std::vector<Anchor> m_anchors;
  std::array<std::uint64_t, 65536 / 64> m_pairs{};  // bit per key pair
  std::array<std::vector<Candidate>, 256> m_by_first{};  // candidates by the key pair's first byte
};

}  // namespace aoti::parsers::logs
