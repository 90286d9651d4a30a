#include "torch/index_assert.hpp"

namespace aoti::torch {
namespace {

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r\n");
  return text.substr(first, last - first + 1);
}

bool is_identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

std::string_view leading_identifier(std::string_view text) {
  if (text.empty() || (text[0] >= '0' && text[0] <= '9')) return {};
  std::size_t end = 0;
  while (end < text.size() && is_identifier_char(text[end])) ++end;
  return text.substr(0, end);
}

// A bound as sympy prints it: no comparison inside, brackets balanced.
bool plausible_bound(std::string_view bound) {
  if (bound.empty() || bound.find_first_of("<>=`'\"") != std::string_view::npos) return false;
  int depth = 0;
  for (const char c : bound) {
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (depth < 0) return false;
  }
  return depth == 0;
}

}  // namespace

std::optional<IndexAssertForm> parse_index_assert(std::string_view message) {
  message = trim(message);
  if (message.starts_with(k_index_assert_prefix))
    message.remove_prefix(k_index_assert_prefix.size());
  IndexAssertForm form;
  std::string_view rest = message;
  // `L <= V ...`: the lower bound is what precedes the first `<=`.
  if (const auto le = message.find("<="); le != std::string_view::npos) {
    const auto lower = trim(message.substr(0, le));
    if (!plausible_bound(lower)) return std::nullopt;
    form.lower = std::string(lower);
    rest = trim(message.substr(le + 2));
  }
  const auto var = leading_identifier(rest);
  if (var.empty()) return std::nullopt;
  form.index_var = std::string(var);
  rest = trim(rest.substr(var.size()));
  if (!rest.empty()) {
    if (rest[0] != '<' || (rest.size() > 1 && rest[1] == '=')) return std::nullopt;
    const auto upper = trim(rest.substr(1));
    if (!plausible_bound(upper)) return std::nullopt;
    form.upper = std::string(upper);
  }
  if (form.lower.empty() && form.upper.empty()) return std::nullopt;
  return form;
}

std::string condition_text(const IndexAssertForm& form) {
  std::string out;
  if (!form.lower.empty()) out = form.lower + " <= ";
  out += form.index_var;
  if (!form.upper.empty()) out += " < " + form.upper;
  return out;
}

}  // namespace aoti::torch
