#include "parsers/wrapper/cxx_scan.hpp"

#include "util/text.hpp"

namespace aoti::parsers::wrapper {

namespace {

// The position just past the string literal whose opening quote is at `pos` (or the end of the
// text when it is never closed: the rest of a broken line is not code either).
std::size_t skip_string(std::string_view text, std::size_t pos) {
  const char quote = text[pos];
  for (std::size_t i = pos + 1; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
    } else if (text[i] == quote) {
      return i + 1;
    }
  }
  return text.size();
}

}  // namespace

std::size_t find_closing(std::string_view text, std::size_t open) {
  std::size_t depth = 0;
  for (std::size_t i = open; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"' || c == '\'') {
      i = skip_string(text, i) - 1;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      if (depth == 0) return std::string_view::npos;
      if (--depth == 0) return i;
    }
  }
  return std::string_view::npos;
}

std::optional<std::string_view> bracket_contents(std::string_view text, std::size_t open) {
  if (open >= text.size()) return std::nullopt;
  const std::size_t close = find_closing(text, open);
  if (close == std::string_view::npos) return std::nullopt;
  return text.substr(open + 1, close - open - 1);
}

std::optional<std::vector<std::string_view>> split_top_level(std::string_view text) {
  std::vector<std::string_view> items;
  std::size_t depth = 0;
  // `<` opens a template argument list only right after a name (`std::array<int64_t, 2>`), so
  // that comparisons written with spaces do not swallow the commas after them.
  std::size_t angle_depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"' || c == '\'') {
      i = skip_string(text, i) - 1;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      if (depth > 0) --depth;
    } else if (c == '<' && i > 0 && util::is_identifier_char(text[i - 1]) && i + 1 < text.size() &&
               text[i + 1] != '<' && text[i + 1] != '=') {
      ++angle_depth;
    } else if (c == '>' && angle_depth > 0 && text[i - 1] != '-') {
      --angle_depth;
    } else if (c == ',' && depth == 0 && angle_depth == 0) {
      if (items.size() >= k_max_list_items) return std::nullopt;
      items.push_back(util::trim(text.substr(start, i - start)));
      start = i + 1;
    }
  }
  const std::string_view last = util::trim(text.substr(start));
  if (!last.empty()) items.push_back(last);
  return items;
}

std::optional<std::vector<std::string_view>> top_level_items(std::string_view text,
                                                             std::size_t open,
                                                             std::size_t min_items) {
  const auto contents = bracket_contents(text, open);
  if (!contents) return std::nullopt;
  auto items = split_top_level(*contents);
  if (!items || items->size() < min_items) return std::nullopt;
  return items;
}

std::optional<std::string> unquote(std::string_view text) {
  text = util::trim(text);
  if (text.size() >= 3 && text[0] == 'R' && text[1] == '"') {
    const std::size_t paren = text.find('(');
    if (paren == std::string_view::npos) return std::nullopt;
    std::string closing(1, ')');
    closing.append(text.substr(2, paren - 2));
    closing.push_back('"');
    if (text.size() < paren + 1 + closing.size() ||
        text.substr(text.size() - closing.size()) != closing) {
      return std::nullopt;
    }
    return std::string(text.substr(paren + 1, text.size() - closing.size() - paren - 1));
  }
  if (text.size() < 2 || (text[0] != '"' && text[0] != '\'') ||
      skip_string(text, 0) != text.size() || text.back() != text[0]) {
    return std::nullopt;
  }
  std::string value;
  value.reserve(text.size() - 2);
  for (std::size_t i = 1; i + 1 < text.size(); ++i) {
    char c = text[i];
    if (c == '\\' && i + 2 < text.size()) {
      c = text[++i];
      if (c == 'n')
        c = '\n';
      else if (c == 't')
        c = '\t';
    }
    value.push_back(c);
  }
  return value;
}

std::string_view strip_outer_parens(std::string_view text) {
  text = util::trim(text);
  if (text.size() >= 2 && text.front() == '(' && find_closing(text, 0) == text.size() - 1) {
    return util::trim(text.substr(1, text.size() - 2));
  }
  return text;
}

std::vector<std::string> bracketed_items(std::string_view text, std::size_t open) {
  std::vector<std::string> result;
  const auto items = top_level_items(text, open);
  if (!items) return result;
  for (const auto item : *items) {
    if (!item.empty()) result.emplace_back(item);
  }
  return result;
}

}  // namespace aoti::parsers::wrapper
