#include "checks/support.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

#include <fmt/format.h>

namespace aoti::checks {
using namespace aoti::core;

Finding BasicCheck::new_finding(Severity severity, double confidence) const {
  Finding f;
  f.check = std::string(m_id);
  f.severity = severity;
  f.confidence = confidence;
  return f;
}

const ModelFacts* model_of(const Case& c, const LogEvent& e) {
  if (e.model < 0 || static_cast<std::size_t>(e.model) >= c.models.size()) return nullptr;
  return &c.models[static_cast<std::size_t>(e.model)];
}

Evidence event_evidence(const LogEvent& e, std::string note) {
  std::string excerpt = e.text;
  if (e.repeats > 1) excerpt += fmt::format("  (×{})", e.repeats);
  return Evidence{e.where, std::move(excerpt), std::move(note)};
}

std::string dim_contract(const WrapperFacts& w, int input_index, int dim) {
  std::optional<std::int64_t> low, high, exact;
  for (const auto& check : w.input_checks) {
    if (check.input_index != input_index || check.dim != dim) continue;
    if (check.kind == InputCheckKind::dim_min) low = check.value;
    if (check.kind == InputCheckKind::dim_max) high = check.value;
    if (check.kind == InputCheckKind::dim_equal) exact = check.value;
  }
  if (exact) return fmt::format("= {}", *exact);
  if (low || high)
    return fmt::format("in [{}, {}]", low ? std::to_string(*low) : "0", high ? std::to_string(*high) : "∞");
  return "";
}

std::string input_contract(const WrapperFacts& w, int input_index) {
  std::vector<std::string> parts;
  int max_dim = -1;
  for (const auto& check : w.input_checks)
    if (check.input_index == input_index && check.kind != InputCheckKind::stride_equal) max_dim = std::max(max_dim, check.dim);
  for (int dim = 0; dim <= max_dim; ++dim)
    if (auto text = dim_contract(w, input_index, dim); !text.empty()) parts.push_back(fmt::format("dim {} {}", dim, text));
  for (const auto& check : w.input_checks) {
    if (check.input_index != input_index) continue;
    if (check.kind == InputCheckKind::dtype)
      parts.push_back(check.label.empty() ? dtype_name_of_code(std::to_string(check.value)) : check.label);
    if (check.kind == InputCheckKind::device_type)
      parts.push_back("on " + (check.label.empty() ? device_name_of_code(std::to_string(check.value)) : check.label));
  }
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

int input_index_of(const WrapperFacts& w, std::string_view name) {
  for (const auto& input : w.inputs)
    if (input.name == name) return input.index;
  return -1;
}

bool is_size_symbol(std::string_view arg) {
  std::size_t i = 0;
  if (arg.starts_with("ks")) i = 2;
  else if (!arg.empty() && (arg[0] == 's' || arg[0] == 'u')) i = 1;
  else return false;
  return i < arg.size() && std::all_of(arg.begin() + static_cast<long>(i), arg.end(),
                                       [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); });
}

std::optional<std::int64_t> integer_literal(std::string_view arg) {
  while (!arg.empty() && (arg.back() == 'L' || arg.back() == 'l' || arg.back() == 'U' || arg.back() == 'u')) arg.remove_suffix(1);
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(arg.data(), arg.data() + arg.size(), value);
  if (ec != std::errc() || end != arg.data() + arg.size() || arg.empty()) return std::nullopt;
  return value;
}

std::string show_lines_command(const Location& where, int first, int last) {
  first = std::max(first, 1);
  if (where.entry.empty()) return fmt::format("sed -n '{},{}p' '{}'", first, last, where.artifact);
  return fmt::format("unzip -p '{}' '{}' | sed -n '{},{}p'", where.artifact, where.entry, first, last);
}

Location wrapper_at(const WrapperFacts& w, int line) {
  Location at = w.where;
  at.line = line;
  return at;
}

Location kernel_at(const WrapperFacts& w, const TritonKernel& kernel, int line) {
  if (kernel.source.artifact.empty()) return wrapper_at(w, line);
  Location at = kernel.source;
  at.line = line;
  return at;
}

std::string torch_ops_path(std::string op) {
  if (const auto at = op.find("::"); at != std::string::npos) op.replace(at, 2, ".");
  return op;
}

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string out = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + "]";
}

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (const auto& p : parts) {
    if (!out.empty()) out += separator;
    out += p;
  }
  return out;
}

bool is_cxx_runtime_symbol(std::string_view symbol) {
  return symbol.starts_with("std::") || symbol.starts_with("__cxxabiv1") || symbol.starts_with("__gnu_cxx") ||
         symbol.starts_with("__cxa_") || symbol.starts_with("operator new") || symbol.starts_with("operator delete");
}

std::string module_name(std::string_view path) {
  const auto slash = path.find_last_of('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

std::string frame_text(const StackFrame& frame, std::size_t index) {
  std::string symbol = frame.symbol.empty() ? fmt::format("0x{:x}", frame.pc) : short_symbol(frame.symbol);
  if (symbol.size() > 160) symbol = symbol.substr(0, 157) + "...";
  return fmt::format("#{} {} in {}{}", index, symbol,
                     !frame.package.empty() ? "the model .so" : frame.module.empty() ? "?" : module_name(frame.module),
                     frame.method == "stack scan" ? " [stack scan]" : "");
}

const MappedModule* mapped(const CoreFacts& core, std::string_view prefix) {
  for (const auto& module : core.modules)
    if (module_name(module.path).starts_with(prefix)) return &module;
  return nullptr;
}

Location core_location(const CoreFacts& core) { return Location{core.artifact, "", 0}; }

std::string dtype_name_of_code(std::string_view code) {
  // c10::ScalarType numbering, as AOTI's input checks print it.
  static constexpr std::pair<std::string_view, std::string_view> k_names[] = {
      {"0", "uint8"}, {"1", "int8"},    {"2", "int16"},  {"3", "int32"},   {"4", "int64"},
      {"5", "float16"}, {"6", "float32"}, {"7", "float64"}, {"11", "bool"}, {"15", "bfloat16"}};
  for (const auto& [number, name] : k_names)
    if (code.substr(0, code.find('(')) == number) return std::string(name);
  return "dtype " + std::string(code);
}

std::string device_name_of_code(std::string_view code) {
  static constexpr std::pair<std::string_view, std::string_view> k_names[] = {
      {"0", "cpu"}, {"1", "cuda"}, {"2", "mkldnn"}, {"3", "opengl"}, {"7", "hip"}, {"9", "mps"},
      {"12", "meta"}, {"20", "xpu"}, {"13", "hpu"}, {"19", "privateuseone"}};
  for (const auto& [number, name] : k_names)
    if (code == number) return std::string(name);
  return "device type " + std::string(code);
}

}  // namespace aoti::checks
