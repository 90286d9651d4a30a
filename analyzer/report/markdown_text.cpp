#include "analyzer/report/markdown_text.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "analyzer/report/common.hpp"

namespace aoti::report::markdown {
namespace {

std::size_t longest_backtick_run(std::string_view text) {
  std::size_t longest = 0, run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return longest;
}

}  // namespace

std::string one_line(std::string_view text) {
  std::string out = sanitize(text);
  std::replace_if(out.begin(), out.end(), [](char c) { return c == '\n' || c == '\t'; }, ' ');
  return out;
}

std::string literal_text(std::string_view text) {
  const std::string flat = one_line(text);
  std::string out;
  out.reserve(flat.size());
  const auto first = flat.find_first_not_of(' ');
  const auto digits_end =
      first == std::string::npos ? first : flat.find_first_not_of("0123456789", first);
  const auto alnum = [&](std::size_t i) {
    return i < flat.size() && std::isalnum(static_cast<unsigned char>(flat[i]));
  };
  for (std::size_t i = 0; i < flat.size(); ++i) {
    const char c = flat[i];
    const bool block = i == first && std::string_view("-+=#>").find(c) != std::string_view::npos;
    const bool list_number = i == digits_end && i != first && (c == '.' || c == ')');
    const bool emphasis = c == '_' && !(i > 0 && alnum(i - 1) && alnum(i + 1));
    if (block || list_number || emphasis ||
        std::string_view("\\`*[]<|~&").find(c) != std::string_view::npos)
      out += '\\';
    out += c;
  }
  return out;
}

std::string code_span(std::string_view text, bool in_table) {
  std::string content = one_line(text);
  if (content.empty()) return {};
  if (in_table && content.find("\\|") != std::string::npos) return literal_text(content);
  if (in_table) {
    std::string escaped;
    for (char c : content) {
      if (c == '|') escaped += '\\';
      escaped += c;
    }
    content = std::move(escaped);
  }
  const std::string fence(longest_backtick_run(content) + 1, '`');
  const bool pad = content.front() == '`' || content.back() == '`' ||
                   (content.front() == ' ' && content.back() == ' ' &&
                    content.find_first_not_of(' ') != std::string::npos);
  const std::string_view space = pad ? " " : "";
  return fmt::format("{}{}{}{}{}", fence, space, content, space, fence);
}

std::string prose(std::string_view text, bool in_table) {
  const std::string flat = one_line(text);
  std::string out;
  std::size_t plain_begin = 0, i = 0;
  while (i < flat.size()) {
    if (flat[i] != '`') {
      ++i;
      continue;
    }
    const std::size_t run = std::min(flat.find_first_not_of('`', i), flat.size()) - i;
    std::size_t close = i + run;
    while ((close = flat.find('`', close)) != std::string::npos) {
      const std::size_t close_run =
          std::min(flat.find_first_not_of('`', close), flat.size()) - close;
      if (close_run == run) break;
      close += close_run;
    }
    if (close == std::string::npos) {
      i += run;
      continue;
    }
    out += literal_text(std::string_view(flat).substr(plain_begin, i - plain_begin));
    out += code_span(std::string_view(flat).substr(i + run, close - i - run), in_table);
    i = plain_begin = close + run;
  }
  return out + literal_text(std::string_view(flat).substr(plain_begin));
}

std::string fenced(std::string_view text, std::string_view info) {
  const std::string content = sanitize(text);
  const std::string fence(std::max<std::size_t>(3, longest_backtick_run(content) + 1), '`');
  return fmt::format("{}{}\n{}\n{}\n", fence, info, content, fence);
}

}  // namespace aoti::report::markdown
