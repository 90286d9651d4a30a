// Helpers both front ends share: the text of a line for excerpts, schema strings, op names, and
// the pieces of a pattern record that do not depend on the language.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/facts/source.hpp"

namespace aoti::parsers::source {

// Offsets of line starts, so that excerpting line N costs O(1) whatever the file's size.
class LineIndex {
 public:
  explicit LineIndex(std::string_view text);
  // Line `line` (1-based) without its newline, trimmed, at most k_excerpt_limit bytes.
  std::string excerpt(int line) const;
  int line_count() const { return static_cast<int>(m_starts.size()); }

 private:
  std::string_view m_text;
  std::vector<std::size_t> m_starts;
};

inline constexpr std::size_t k_excerpt_limit = 200;
// SourcePattern::matched_text is kept only up to this length, and only when on one line.
inline constexpr std::size_t k_max_matched_text = 120;

// `ns::op.overload(Tensor x, SymInt n=1, *, int[] sizes) -> Tensor` → name "ns::op.overload"
// (the namespace only when written) and its arguments with types as spelled (alias annotations
// such as `(a!)` dropped). Malformed text yields what could be read; never throws.
struct ParsedSchema {
  std::string name;
  std::vector<::aoti::model::SchemaArg> args;
  std::vector<std::size_t> arg_offsets;  // where each argument's type starts in the schema text
};
ParsedSchema parse_schema(std::string_view schema);

// A pattern as a front end matched it, with `name` and `text` as SourcePattern::name and
// matched_text; the place (op, function, file, line, column, excerpt) is filled where it is
// recorded.
::aoti::model::SourcePattern matched(std::string id, ::aoti::model::PatternForm form,
                                     std::string name = {}, std::string text = {});

// Orders patterns by line, then column, then id: the order SourceFacts::violations promises.
void sort_by_place(std::vector<::aoti::model::SourcePattern>& patterns);

// `name` inside namespace `ns`: "ns::name", unless `name` is qualified already or there is no
// namespace (an op without a namespace stays unqualified, never "::name").
std::string qualify(const std::string& ns, const std::string& name);

// An argument name that says it carries a size or shape (`output_size`, `split_sizes`, `num_rows`).
bool names_a_size(std::string_view name);

}  // namespace aoti::parsers::source
