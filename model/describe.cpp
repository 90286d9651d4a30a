#include "model/describe.hpp"

#include <algorithm>
#include <filesystem>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "torch/codes.hpp"
#include "util/demangle.hpp"
#include "util/text.hpp"

namespace aoti::model {

DimBounds dim_bounds(const WrapperFacts& w, int input_index, int dim) {
  DimBounds bounds;
  for (const auto& check : w.input_checks) {
    if (check.input_index != input_index || check.dim != dim) continue;
    if (check.kind == InputCheckKind::dim_min) bounds.min = check.value;
    if (check.kind == InputCheckKind::dim_max) bounds.max = check.value;
    if (check.kind == InputCheckKind::dim_equal) bounds.equal = check.value;
  }
  return bounds;
}

std::string dim_condition(const DimBounds& b) {
  if (b.equal) return fmt::format("= {}", *b.equal);
  if (b.min && b.max) return fmt::format("in [{}, {}]", *b.min, *b.max);
  if (b.min) return fmt::format(">= {}", *b.min);
  if (b.max) return fmt::format("<= {}", *b.max);
  return "";
}

std::string dim_contract(const WrapperFacts& w, int input_index, int dim) {
  return dim_condition(dim_bounds(w, input_index, dim));
}

std::string dtype_text(const InputCheck& check) {
  if (const auto* type = torch::scalar_type_of_aten(check.label))
    return fmt::format("{} ({})", type->name, check.label);
  if (!check.label.empty()) return check.label;
  if (const auto* type = torch::scalar_type(check.value)) return std::string(type->name);
  return fmt::format("dtype {}", check.value);
}

std::string device_text(const InputCheck& check) {
  if (!check.label.empty()) return check.label;
  if (const auto* type = torch::device_type(check.value)) return std::string(type->name);
  return fmt::format("device type {}", check.value);
}

namespace {

// The range the user exported next to the one compiled in: Inductor raises a minimum of 0 or 1 to 2
// and narrows ranges with its guards, and a reader must see both.
std::string exported_note(const WrapperInput& input, int dim, const DimBounds& b) {
  const auto exported = input.exported_ranges.find(dim);
  if (exported == input.exported_ranges.end()) return "";
  const auto bound = [&](std::string_view key) -> std::optional<std::int64_t> {
    const auto at = exported->second.find(key);
    if (at == std::string::npos) return std::nullopt;
    return util::parse_int(util::digits_at(exported->second, at + key.size()));
  };
  const auto lo = bound("min="), hi = bound("max=");
  std::vector<std::string> changes;
  if (lo && b.min && *b.min != *lo)
    changes.push_back(fmt::format("minimum {} raised to {}", *lo, *b.min));
  if (hi && b.max && *b.max != *hi)
    changes.push_back(fmt::format("maximum {} narrowed to {}", *hi, *b.max));
  if (b.equal) changes.push_back(fmt::format("specialized to {}", *b.equal));
  std::string joined;
  for (const auto& change : changes) joined += (joined.empty() ? "" : ", ") + change;
  return fmt::format(" (exported {}{})", exported->second, joined.empty() ? "" : ": " + joined);
}

}  // namespace

std::string input_contract(const WrapperFacts& w, int input_index, bool annotated) {
  const WrapperInput* input = nullptr;
  for (const auto& candidate : w.inputs)
    if (candidate.index == input_index) input = &candidate;
  // Strides are part of the contract but rarely what a reader is looking for.
  int max_dim = -1;
  const InputCheck *dtype = nullptr, *device = nullptr;
  for (const auto& check : w.input_checks) {
    if (check.input_index != input_index) continue;
    if (check.kind == InputCheckKind::dtype)
      dtype = &check;
    else if (check.kind == InputCheckKind::device_type)
      device = &check;
    else if (check.kind != InputCheckKind::stride_equal)
      max_dim = std::max(max_dim, check.dim);
  }
  std::vector<std::string> parts;
  for (int dim = 0; dim <= max_dim; ++dim) {
    const DimBounds bounds = dim_bounds(w, input_index, dim);
    const std::string condition = dim_condition(bounds);
    if (condition.empty()) continue;
    std::string part = fmt::format("dim {}", dim);
    if (annotated && input)
      if (const auto name = input->dim_names.find(dim); name != input->dim_names.end())
        part += fmt::format(" ({})", name->second);
    part += " " + condition;
    if (annotated && input) part += exported_note(*input, dim, bounds);
    parts.push_back(std::move(part));
  }
  if (dtype) parts.push_back(dtype_text(*dtype));
  if (device) parts.push_back("on " + device_text(*device));
  std::string out;
  for (const auto& part : parts) out += (out.empty() ? "" : ", ") + part;
  return out;
}

std::string frame_text(const StackFrame& frame, std::size_t index) {
  std::string symbol =
      frame.symbol.empty() ? fmt::format("0x{:x}", frame.pc) : util::short_symbol(frame.symbol);
  if (symbol.size() > 160) symbol = symbol.substr(0, 157) + "...";
  const std::string module = std::filesystem::path(frame.module).filename().string();
  return fmt::format("#{} {} in {}", index, symbol,
                     !frame.package.empty() ? "the model .so"
                     : module.empty()       ? "?"
                                            : module);
}

std::string dim3_text(const Dim3& d) { return fmt::format("({},{},{})", d[0], d[1], d[2]); }

std::string gpu_kernel_name(const GpuCodeLocation& at) {
  return at.kernel_name.empty() ? at.kernel : at.kernel_name;
}

std::string gpu_location_text(const GpuCodeLocation& at) {
  std::string out = at.kernel.empty()
                        ? fmt::format("0x{:x}", at.pc)
                        : fmt::format("{}+0x{:x}", gpu_kernel_name(at), at.kernel_offset);
  if (at.line > 0)
    out += fmt::format(" ({}:{})", std::filesystem::path(at.file).filename().string(), at.line);
  // The symbol as the cubin spells it, to search for with cuobjdump or in a profile.
  if (gpu_kernel_name(at) != at.kernel) out += fmt::format(" [symbol {}]", at.kernel);
  return out;
}

std::string gpu_warp_text(const GpuWarp& warp) {
  if (warp.from_sm_table)
    return fmt::format("SM {} of device {} (its faulting warps had exited)", warp.sm, warp.device);
  return fmt::format(
      "block {} thread {} (warp {} on SM {} of device {}, grid {}, {} faulting lane(s))",
      dim3_text(warp.block),
      warp.faulting_lanes.empty() ? "(?)" : dim3_text(warp.faulting_lanes.front().thread),
      warp.warp, warp.sm, warp.device, warp.grid, warp.faulting_lanes.size());
}

}  // namespace aoti::model
