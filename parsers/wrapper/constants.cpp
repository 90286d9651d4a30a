#include "parsers/wrapper/constants.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "parsers/wrapper/cxx_scan.hpp"
#include "parsers/wrapper/statements.hpp"
#include "util/text.hpp"

namespace aoti::parsers::wrapper {

namespace {

std::optional<std::vector<std::int64_t>> parse_int_list(std::string_view text) {
  text = util::trim(text);
  if (text.empty() || text[0] != '{') return std::nullopt;
  const auto items = top_level_items(text, 0);
  if (!items) return std::nullopt;
  std::vector<std::int64_t> values;
  for (const auto item : *items) {
    const auto value = util::parse_int(item);
    if (!value) return std::nullopt;
    values.push_back(*value);
  }
  return values;
}

}  // namespace

void ConstantReader::read_constant(std::string_view line, int number) {
  const auto assignment = parse_indexed_assignment(line, "constants_info_[");
  if (!assignment) return;
  const std::string_view field = assignment->field;
  const std::string_view value = assignment->value;
  auto [it, inserted] = m_constants.try_emplace(assignment->index);
  model::WrapperConstant& constant = it->second;
  if (inserted) {
    constant.index = assignment->index;
    constant.line = number;
  }
  if (field == "name") {
    if (const auto name = unquote(value)) {
      constant.name = *name;
      constant.line = number;
    }
  } else if (field == "dtype") {
    constant.dtype = std::string(identifier_after(value, "dtype_"));
  } else if (field == "device_type") {
    constant.device_type = std::string(identifier_after(value, "device_type_"));
  } else if (field == "type") {
    constant.kind = std::string(identifier_after(value, "ConstantType::"));
  } else if (field == "original_fqn") {
    if (const auto fqn = unquote(value)) constant.original_fqn = *fqn;
  } else if (field == "data_size") {
    if (const auto size = util::parse_int(value)) constant.data_size = *size;
  } else if (field == "from_folded") {
    constant.from_folded = value == "true";
  } else if (field == "shape") {
    if (auto shape = parse_int_list(value)) constant.shape = std::move(*shape);
  } else if (field == "stride") {
    if (auto stride = parse_int_list(value)) constant.stride = std::move(*stride);
  }
}

void ConstantReader::finish() {
  for (auto& [index, constant] : m_constants) m_facts.constants.push_back(std::move(constant));
}

}  // namespace aoti::parsers::wrapper
