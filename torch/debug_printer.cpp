#include "torch/debug_printer.hpp"

#include <algorithm>
#include <array>
#include <vector>

namespace aoti::torch {
namespace {

constexpr std::array<std::string_view, 3> k_phases = {"before_launch", "after_launch",
                                                      "aoti_model_inputs"};
constexpr std::string_view k_separator = " - ";

bool all_digits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "arg3" of a graph input "arg3_1", whose "1" is a part of its own.
bool is_graph_input_head(std::string_view part) {
  return part.size() > 3 && part.starts_with("arg") && all_digits(part.substr(3));
}

}  // namespace

bool is_printer_phase(std::string_view text) {
  return std::find(k_phases.begin(), k_phases.end(), text) != k_phases.end();
}

std::optional<PrinterLabel> parse_printer_label(std::string_view label) {
  const auto first = label.find(k_separator);
  if (first == std::string_view::npos) return std::nullopt;
  PrinterLabel parsed;
  parsed.phase = label.substr(0, first);
  if (!is_printer_phase(parsed.phase)) return std::nullopt;
  const std::string_view rest = label.substr(first + k_separator.size());
  if (parsed.phase == "aoti_model_inputs") {
    parsed.arg = rest;
    return rest.empty() ? std::nullopt : std::optional(parsed);
  }
  // The kernel is a C identifier; the arg is printed as written (`48L`, `s0 + 1`), so the first
  // separator after the kernel splits them.
  const auto second = rest.find(k_separator);
  if (second == std::string_view::npos || second == 0) return std::nullopt;
  parsed.kernel = rest.substr(0, second);
  parsed.arg = rest.substr(second + k_separator.size());
  if (parsed.arg.empty()) return std::nullopt;
  return parsed;
}

std::optional<SavedTensorName> parse_saved_tensor_name(std::string_view name) {
  constexpr std::string_view k_prefix = "aoti_torch", k_suffix = ".pt";
  if (!name.starts_with(k_prefix) || !name.ends_with(k_suffix)) return std::nullopt;
  name = name.substr(k_prefix.size(), name.size() - k_prefix.size() - k_suffix.size());
  SavedTensorName parsed;
  for (const std::string_view phase : {"before_launch", "after_launch"})
    if (name.starts_with(phase) && name.substr(phase.size()).starts_with("_")) parsed.phase = phase;
  if (parsed.phase.empty()) return std::nullopt;
  name = name.substr(parsed.phase.size() + 1);
  const auto last = name.rfind('_');
  if (last == std::string_view::npos || last == 0 || last + 1 == name.size()) return std::nullopt;
  parsed.kernel_and_arg = name.substr(0, last);
  parsed.device = name.substr(last + 1);
  // Kernel and arg are each non-empty, so the joined name has an `_` inside it.
  const auto inner = parsed.kernel_and_arg.find('_', 1);
  if (inner == std::string_view::npos || inner + 1 == parsed.kernel_and_arg.size())
    return std::nullopt;
  return parsed;
}

KernelAndArg split_kernel_and_arg(std::string_view joined) {
  std::vector<std::size_t> underscores;  // where each part after the first starts, minus one
  for (std::size_t i = 1; i + 1 < joined.size(); ++i)
    if (joined[i] == '_' && joined[i - 1] != '_') underscores.push_back(i);
  const auto split_at = [&](std::size_t at) {
    return KernelAndArg{joined.substr(0, at), joined.substr(at + 1)};
  };
  if (underscores.empty()) return {joined, {}};
  const auto part_after = [&](std::size_t k) {
    const std::size_t begin = underscores[k] + 1;
    const std::size_t end = k + 1 < underscores.size() ? underscores[k + 1] : joined.size();
    return joined.substr(begin, end - begin);
  };
  if (joined.starts_with("triton_") || joined.starts_with("cpp_")) {
    // The kernel's number, then at least one part of the arg's.
    for (std::size_t k = 1; k + 1 < underscores.size(); ++k)
      if (all_digits(part_after(k))) return split_at(underscores[k + 1]);
  }
  const std::size_t parts = underscores.size();
  if (parts >= 2 && is_graph_input_head(part_after(parts - 2)) && all_digits(part_after(parts - 1)))
    return split_at(underscores[parts - 2]);
  return split_at(underscores.back());
}

}  // namespace aoti::torch
