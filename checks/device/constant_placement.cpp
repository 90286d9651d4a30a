// device.constant-placement: constants whose device differs from the model's.
#include "checks/device/constant_placement.hpp"

#include <fmt/format.h>

#include "checks/support/commands.hpp"
#include "checks/support/contract.hpp"
#include "checks/support/finding.hpp"

namespace aoti::checks {
namespace {
using namespace aoti::model;

}  // namespace

std::vector<Finding> DeviceConstantPlacementCheck::run(const Case& c) const {
  std::vector<Finding> out;
  const LogEvent* mixed = nullptr;
  for (const auto& e : c.log_events)
    if (e.kind == LogEventKind::mixed_device_constants) mixed = &e;

  for (const auto& model : c.models) {
    if (!model.wrapper) continue;
    const std::string device = model.device();
    if (device.empty()) continue;
    const auto& w = *model.wrapper;
    for (const auto& constant : w.constants) {
      if (constant.device_type.empty() || constant.device_type == device) continue;
      Finding f = new_finding(k_info, mixed ? Severity::error : Severity::warning, 0.9);
      f.explains_failure = mixed != nullptr;
      const std::string fqn = constant.original_fqn.empty() ? constant.name : constant.original_fqn;
      f.subject = "constant " + fqn;
      f.title = fmt::format("Constant `{}` is stored on {} in a {} model", fqn,
                            constant.device_type, device);
      f.message = fmt::format(
          "The wrapper declares constant {} (`{}`, {} {}) with device_type = {}, while the model "
          "was "
          "compiled for {}.",
          constant.index, constant.name, constant.kind.empty() ? "tensor" : constant.kind,
          shape_text(constant.shape), constant.device_type, device);
      f.why =
          "A constant left on another device is copied at every run (a hidden cost), and loaders "
          "that "
          "place constants by the model's device can fail or segfault while loading constants "
          "(`Mixed-device constants`).";
      const int device_line = wrapper_line_with(
          w, constant.line, fmt::format("constants_info_[{}].device_type", constant.index));
      f.evidence.push_back(quote_wrapper(
          w, device_line ? device_line : constant.line,
          fmt::format("`{}` is declared on {}", constant.name, constant.device_type)));
      for (const auto& copy : w.constants)
        if (copy.name.starts_with(constant.name + "_" + device))
          f.evidence.push_back(quote_wrapper(
              w, copy.line,
              fmt::format("a {} copy made at compile time, used by the kernels", device)));
      if (mixed)
        f.evidence.push_back(event_evidence(*mixed, "the load failed on mixed-device constants"));
      const std::string module = user_module_name(c);
      f.next_steps = {{fmt::format("move the whole module to the model's device after the "
                                   "assignment that moved `{}`, just before "
                                   "export",
                                   fqn),
                       fmt::format("{}.to(\"{}\")", module, device), "python"},
                      {"re-export and re-package in place, then run this analysis again: no "
                       "constant should be left on another "
                       "device",
                       reanalyze_command(c, "")}};
      out.push_back(std::move(f));
    }
  }
  return out;
}

}  // namespace aoti::checks
