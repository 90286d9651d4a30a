#include "checks/support/contract.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "checks/support/finding.hpp"
#include "torch/codes.hpp"
#include "util/text.hpp"

namespace aoti::checks {
using namespace aoti::model;

int input_index_of(const WrapperFacts& w, std::string_view name) {
  for (const auto& input : w.inputs)
    if (input.name == name) return input.index;
  return -1;
}

std::string user_module_name(const Case& c) {
  static const std::regex k_export_call(R"(export\(\s*([A-Za-z_][A-Za-z_0-9.]*)\s*,)");
  for (const auto& trace : c.traces)
    for (const auto& call : trace.exports) {
      std::smatch m;
      if (std::regex_search(call.call_site.code, m, k_export_call)) return m[1].str();
    }
  return "model";
}

namespace {
const WrapperInput* input_named(const WrapperFacts& w, std::string_view name) {
  for (const auto& input : w.inputs)
    if (input.name == name) return &input;
  return nullptr;
}
const WrapperInput* input_at(const WrapperFacts& w, int index) {
  for (const auto& input : w.inputs)
    if (input.index == index) return &input;
  return nullptr;
}
}  // namespace

std::string input_display(const WrapperFacts& w, std::string_view wrapper_input) {
  const WrapperInput* input = input_named(w, wrapper_input);
  if (!input || input->user_name.empty() || input->user_name == wrapper_input)
    return fmt::format("`{}`", wrapper_input);
  return fmt::format("`{}` (your `{}`)", wrapper_input, input->user_name);
}

NextStep input_step(const WrapperFacts* w, int input_index, std::string what,
                    std::string_view code) {
  const WrapperInput* input = w ? input_at(*w, input_index) : nullptr;
  if (input && !input->user_name.empty() &&
      util::leading_identifier(input->user_name) == input->user_name)
    return {std::move(what), fmt::format(fmt::runtime(code), input->user_name), "python"};
  what += input ? fmt::format(" (`x` is input {}, {})", input_index, input_display(*w, input->name))
                : fmt::format(" (`x` is input {})", input_index);
  return {std::move(what), fmt::format(fmt::runtime(code), "x"), "python"};
}

std::string dim_name_or(const WrapperFacts& w, int input_index, int dim, std::string fallback) {
  const WrapperInput* input = input_at(w, input_index);
  if (!input) return fallback;
  const auto it = input->dim_names.find(dim);
  return it == input->dim_names.end() ? fallback : it->second;
}

std::string dynamic_shapes_text(const WrapperFacts& w, int input_index, int dim,
                                const std::string& dim_spec) {
  const std::string entry = fmt::format("{{{}: {}}}", dim, dim_spec);
  if (const WrapperInput* input = input_at(w, input_index); input && !input->user_name.empty())
    return fmt::format("dynamic_shapes = {{\"{}\": {}}}", input->user_name, entry);
  // Positional: one entry per forward argument, in order (the wrapper's inputs are the user's).
  std::vector<std::string> entries(std::max<std::size_t>(w.inputs.size(), 1), "None");
  entries[static_cast<std::size_t>(std::max(input_index, 0)) % entries.size()] = entry;
  return fmt::format("dynamic_shapes = ({},)", join(entries));
}

std::string dtype_name_of_code(std::string_view code) {
  // As AOTI's input checks print it: "6(at::kFloat)", or the bare number.
  if (const auto number = util::parse_int(code.substr(0, code.find('('))))
    if (const auto* type = torch::scalar_type(*number)) return std::string(type->name);
  return "dtype " + std::string(code);
}

std::string device_name_of_code(std::string_view code) {
  if (const auto number = util::parse_int(code))
    if (const auto* type = torch::device_type(*number)) return std::string(type->name);
  return "device type " + std::string(code);
}

const WrapperConstant* constant_named(const WrapperFacts& w, std::string_view name) {
  const auto it = std::find_if(w.constants.begin(), w.constants.end(),
                               [&](const WrapperConstant& k) { return k.name == name; });
  return it == w.constants.end() ? nullptr : &*it;
}

std::string argument_text(const WrapperFacts& w, const std::string& arg) {
  if (const int input = input_index_of(w, arg); input >= 0)
    return fmt::format("model input {} {}", input, input_display(w, arg));
  if (const WrapperConstant* constant = constant_named(w, arg))
    return fmt::format("constant `{}`{}{}", arg,
                       constant->original_fqn.empty() || constant->original_fqn == arg
                           ? ""
                           : fmt::format(" (`{}`)", constant->original_fqn),
                       constant->shape.empty() ? "" : " " + shape_text(constant->shape));
  return fmt::format("`{}`", arg);
}

}  // namespace aoti::checks
