#include "util/text.hpp"

#include <string>

#include <charconv>
#include <climits>

namespace aoti::util {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_identifier_char(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

std::string_view digits_at(std::string_view text, std::size_t pos) {
  if (pos >= text.size()) return {};
  std::size_t end = pos;
  while (end < text.size() && is_digit(text[end])) ++end;
  return text.substr(pos, end - pos);
}

std::string_view identifier_at(std::string_view text, std::size_t pos) {
  if (pos >= text.size()) return {};
  std::size_t end = pos;
  while (end < text.size() && is_identifier_char(text[end])) ++end;
  return text.substr(pos, end - pos);
}

std::string_view leading_identifier(std::string_view text) {
  if (text.empty() || is_digit(text[0])) return {};
  return identifier_at(text, 0);
}

std::optional<int> to_int(std::string_view digits) {
  int value = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (error != std::errc{} || end != digits.data() + digits.size() || digits.empty())
    return std::nullopt;
  return value;
}

std::optional<std::int64_t> parse_int(std::string_view text) {
  text = trim(text);
  while (!text.empty() &&
         (text.back() == 'L' || text.back() == 'l' || text.back() == 'U' || text.back() == 'u')) {
    text.remove_suffix(1);
  }
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (text.empty()) return std::nullopt;
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<int> parse_index(std::string_view text) {
  const auto value = parse_int(text);
  if (!value || *value < 0 || *value > INT_MAX) return std::nullopt;
  return static_cast<int>(*value);
}

std::string_view after(std::string_view text, std::string_view marker) {
  const auto at = text.find(marker);
  return at == std::string_view::npos ? std::string_view{} : text.substr(at + marker.size());
}

std::string_view between(std::string_view text, std::string_view open, std::string_view close) {
  const auto at = text.find(open);
  if (at == std::string_view::npos) return {};
  const auto rest = text.substr(at + open.size());
  const auto end = rest.find(close);
  return end == std::string_view::npos ? std::string_view{} : rest.substr(0, end);
}

std::string_view first_word(std::string_view text) {
  text = trim(text);
  std::size_t end = 0;
  while (end < text.size() && !is_space(text[end])) ++end;
  return text.substr(0, end);
}

std::string_view last_word(std::string_view text) {
  text = trim(text);
  std::size_t start = text.size();
  while (start > 0 && !is_space(text[start - 1])) --start;
  return text.substr(start);
}

std::string cut_marked(std::string_view text, std::size_t max) {
  if (text.size() <= max) return std::string(text);
  std::size_t end = max;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return std::string(text.substr(0, end)) + "… (" + std::to_string(text.size() - end) +
         " bytes cut)";
}

}  // namespace aoti::util
