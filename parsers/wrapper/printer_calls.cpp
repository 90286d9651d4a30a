#include "parsers/wrapper/printer_calls.hpp"

#include <string>

#include "parsers/wrapper/cxx_scan.hpp"
#include "torch/debug_printer.hpp"

namespace aoti::parsers::wrapper {
namespace {

constexpr std::string_view k_save = "aoti_torch_save_tensor_handle(";
constexpr std::string_view k_print = "aoti_torch_print_tensor_handle(";
constexpr std::string_view k_printf = "printf(";

std::optional<model::PrintPhase> phase_named(std::string_view phase) {
  if (phase == "before_launch") return model::PrintPhase::before_launch;
  if (phase == "after_launch") return model::PrintPhase::after_launch;
  if (phase == "aoti_model_inputs") return model::PrintPhase::model_inputs;
  return std::nullopt;
}

// "before_launch - K - arg" into the call; false when the label is not the printer's.
bool read_label(std::string_view label, model::PrinterCall& call) {
  const auto parsed = torch::parse_printer_label(label);
  if (!parsed) return false;
  call.phase = *phase_named(parsed->phase);
  call.kernel = std::string(parsed->kernel);
  call.arg = std::string(parsed->arg);
  return true;
}

// aoti_torch_save_tensor_handle(buf0, "buf0", "before_launch", "K");
std::optional<model::PrinterCall> read_save(std::string_view line, model::PrinterCall call) {
  const auto args = top_level_items(line, k_save.size() - 1);
  if (!args || args->size() != 4) return std::nullopt;
  const auto name = unquote((*args)[1]), phase = unquote((*args)[2]), kernel = unquote((*args)[3]);
  if (!name || !phase || !kernel || name->empty()) return std::nullopt;
  const auto known = phase_named(*phase);
  if (!known || *known == model::PrintPhase::model_inputs) return std::nullopt;
  call.phase = *known;
  call.kernel = *kernel;
  call.arg = *name;
  call.value = std::string((*args)[0]);
  return call;
}

// aoti_torch_print_tensor_handle(buf0, "before_launch - K - buf0");
std::optional<model::PrinterCall> read_print(std::string_view line, model::PrinterCall call) {
  const auto args = top_level_items(line, k_print.size() - 1);
  if (!args || args->size() != 2) return std::nullopt;
  const auto label = unquote((*args)[1]);
  if (!label || !read_label(*label, call)) return std::nullopt;
  call.value = std::string((*args)[0]);
  return call;
}

// printf("[  before_launch - K - xnumel: %ld  ]", xnumel); printf("\\n");
std::optional<model::PrinterCall> read_printf(std::string_view line, model::PrinterCall call) {
  const auto args = top_level_items(line, k_printf.size() - 1);
  if (!args || args->size() != 2) return std::nullopt;
  const auto format = unquote((*args)[0]);
  if (!format || !format->starts_with("[  ") || !format->ends_with("  ]")) return std::nullopt;
  const std::string_view inner = std::string_view(*format).substr(3, format->size() - 6);
  const auto colon = inner.rfind(": %");
  if (colon == std::string_view::npos || !read_label(inner.substr(0, colon), call))
    return std::nullopt;
  call.kind = model::PrinterCallKind::print_scalar;
  call.value = std::string((*args)[1]);
  return call;
}

}  // namespace

std::optional<model::PrinterCall> read_printer_call(std::string_view line, int number) {
  model::PrinterCall call;
  call.line = number;
  if (line.starts_with(k_save)) {
    call.kind = model::PrinterCallKind::save;
    return read_save(line, std::move(call));
  }
  if (line.starts_with(k_print)) {
    call.kind = model::PrinterCallKind::print;
    return read_print(line, std::move(call));
  }
  if (line.starts_with(k_printf)) return read_printf(line, std::move(call));
  return std::nullopt;
}

}  // namespace aoti::parsers::wrapper
