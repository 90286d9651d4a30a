#include "parsers/source/source_text.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <tuple>

#include "util/text.hpp"

namespace aoti::parsers::source {

LineIndex::LineIndex(std::string_view text) : m_text(text) {
  m_starts.push_back(0);
  for (std::size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n' && i + 1 < text.size()) m_starts.push_back(i + 1);
}

std::string LineIndex::excerpt(int line) const {
  if (line < 1 || static_cast<std::size_t>(line) > m_starts.size()) return {};
  const std::size_t begin = m_starts[static_cast<std::size_t>(line - 1)];
  std::size_t end = m_text.find('\n', begin);
  if (end == std::string_view::npos) end = m_text.size();
  const std::string_view view = util::trim(m_text.substr(begin, end - begin));
  if (view.size() <= k_excerpt_limit) return std::string(view);
  return std::string(view.substr(0, k_excerpt_limit)) + "...";
}

namespace {

// Drops `(a!)`, `(a -> *)` alias annotations: `Tensor(a!)` → `Tensor`, `Tensor(a)[]` → `Tensor[]`.
std::string drop_alias(std::string_view type) {
  std::string out;
  int depth = 0;
  for (char ch : type) {
    if (ch == '(')
      ++depth;
    else if (ch == ')')
      depth = std::max(0, depth - 1);
    else if (depth == 0 && !std::isspace(static_cast<unsigned char>(ch)))
      out += ch;
  }
  return out;
}

}  // namespace

ParsedSchema parse_schema(std::string_view schema) {
  ParsedSchema parsed;
  const std::size_t open = schema.find('(');
  parsed.name = std::string(util::trim(schema.substr(0, open)));
  if (open == std::string_view::npos) return parsed;
  // Arguments run to the parenthesis that closes the first one; `Tensor(a!)` nests.
  int depth = 0;
  std::size_t start = open + 1;
  for (std::size_t i = open; i < schema.size(); ++i) {
    const char ch = schema[i];
    if (ch == '(' || ch == '[') {
      ++depth;
      continue;
    }
    const bool closes_all = ch == ')' && depth == 1;
    if (ch == ')' || ch == ']') --depth;
    if (!(closes_all || (ch == ',' && depth == 1))) continue;
    std::string_view arg = schema.substr(start, i - start);
    const std::size_t first = arg.find_first_not_of(" \t\n");
    const std::size_t arg_offset = start + (first == std::string_view::npos ? 0 : first);
    arg = util::trim(arg.substr(0, arg.find('=')));
    start = i + 1;
    if (!arg.empty() && arg != "*") {
      const std::size_t space = arg.find_last_of(" \t");
      model::SchemaArg a;
      if (space == std::string_view::npos) {
        a.type = drop_alias(arg);
      } else {
        a.type = drop_alias(arg.substr(0, space));
        a.name = std::string(util::trim(arg.substr(space + 1)));
      }
      parsed.args.push_back(std::move(a));
      parsed.arg_offsets.push_back(arg_offset);
    }
    if (closes_all) break;
  }
  return parsed;
}

model::SourcePattern matched(std::string id, model::PatternForm form, std::string name,
                             std::string text) {
  model::SourcePattern p;
  p.id = std::move(id);
  p.form = form;
  p.name = std::move(name);
  p.matched_text = std::move(text);
  return p;
}

void sort_by_place(std::vector<model::SourcePattern>& patterns) {
  std::sort(patterns.begin(), patterns.end(),
            [](const model::SourcePattern& a, const model::SourcePattern& b) {
              return std::tie(a.line, a.column, a.id) < std::tie(b.line, b.column, b.id);
            });
}

std::string qualify(const std::string& ns, const std::string& name) {
  if (name.find("::") != std::string::npos || ns.empty()) return name;
  return ns + "::" + name;
}

bool names_a_size(std::string_view name) {
  std::string lower;
  for (char ch : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  static constexpr std::array<std::string_view, 14> k_words{
      "size", "shape", "len", "length", "rows",  "cols", "numel",
      "num_", "batch", "seq", "tokens", "split", "n_",   "count"};
  return std::any_of(k_words.begin(), k_words.end(),
                     [&](std::string_view w) { return lower.find(w) != std::string::npos; }) ||
         lower == "n" || lower == "m" || lower == "k";
}

}  // namespace aoti::parsers::source
