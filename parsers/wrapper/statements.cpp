#include "parsers/wrapper/statements.hpp"

#include "util/text.hpp"

namespace aoti::parsers::wrapper {

std::optional<DimAccess> parse_dim_access(std::string_view text) {
  text = util::trim(text);
  const std::string_view name = util::leading_identifier(text);
  DimAccess access;
  if (name.ends_with("_size")) {
    access.input = name.substr(0, name.size() - 5);
  } else if (name.ends_with("_stride")) {
    access.input = name.substr(0, name.size() - 7);
    access.is_stride = true;
  } else {
    return std::nullopt;
  }
  const std::string_view rest = text.substr(name.size());
  if (access.input.empty() || rest.size() < 3 || rest.front() != '[' || rest.back() != ']') {
    return std::nullopt;
  }
  const auto dim = util::parse_index(rest.substr(1, rest.size() - 2));
  if (!dim) return std::nullopt;
  access.dim = *dim;
  return access;
}

std::optional<IndexedAssignment> parse_indexed_assignment(std::string_view line,
                                                          std::string_view prefix) {
  line = line.substr(prefix.size());
  const std::size_t close = line.find(']');
  if (close == std::string_view::npos) return std::nullopt;
  const auto index = util::parse_index(line.substr(0, close));
  if (!index) return std::nullopt;
  std::string_view rest = line.substr(close + 1);
  if (rest.empty() || rest[0] != '.') return std::nullopt;
  const std::string_view field = util::leading_identifier(rest.substr(1));
  if (field.empty()) return std::nullopt;
  rest = util::trim(rest.substr(1 + field.size()));
  if (rest.empty() || rest[0] != '=') return std::nullopt;
  rest = rest.substr(1);
  const std::size_t semicolon = rest.rfind(';');
  if (semicolon != std::string_view::npos) rest = rest.substr(0, semicolon);
  return IndexedAssignment{*index, field, util::trim(rest)};
}

std::string_view identifier_after(std::string_view text, std::string_view key) {
  const std::size_t at = text.find(key);
  if (at == std::string_view::npos) return {};
  return util::leading_identifier(text.substr(at + key.size()));
}

std::string_view identifier_before(std::string_view text, std::size_t end) {
  std::size_t begin = end;
  while (begin > 0 && util::is_identifier_char(text[begin - 1])) --begin;
  return text.substr(begin, end - begin);
}

}  // namespace aoti::parsers::wrapper
