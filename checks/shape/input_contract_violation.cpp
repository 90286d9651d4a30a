// shape.input-contract-violation: runtime input-check errors, explained against the package's
// contract.
#include "checks/shape/input_contract_violation.hpp"

#include <fmt/format.h>

#include "checks/support/contract.hpp"
#include "checks/support/finding.hpp"
#include "model/describe.hpp"

namespace aoti::checks {
namespace {
using namespace aoti::model;

// The wrapper condition that prints each input-check error.
InputCheckKind kind_of(std::string_view problem) {
  if (problem == "dim value is too large") return InputCheckKind::dim_max;
  if (problem == "dim value is too small") return InputCheckKind::dim_min;
  if (problem == "unmatched stride value") return InputCheckKind::stride_equal;
  if (problem == "unmatched dtype") return InputCheckKind::dtype;
  if (problem == "unmatched device type") return InputCheckKind::device_type;
  return InputCheckKind::dim_equal;
}

// The exported minimum of the dim an error is about, to keep it in a widened range.
std::int64_t lower_bound(const WrapperFacts& w, const LogEvent& e) {
  for (const auto& check : w.input_checks)
    if (check.input_index == e.input_index && check.dim == e.dim &&
        check.kind == InputCheckKind::dim_min)
      return check.value;
  return 0;
}

Finding explain(const Case& c, const LogEvent& e) {
  Finding f = new_finding(ShapeInputContractViolationCheck::k_info, Severity::error, 0.9);
  f.explains_failure = true;
  const ModelFacts* model = model_of(c, e);
  const WrapperFacts* w = model && model->wrapper ? &*model->wrapper : nullptr;

  std::string input = fmt::format("input {}", e.input_index);
  std::string symbol;
  if (w && e.input_index >= 0 && static_cast<std::size_t>(e.input_index) < w->inputs.size()) {
    const std::string& name = w->inputs[static_cast<std::size_t>(e.input_index)].name;
    input = fmt::format("input {} {}", e.input_index, input_display(*w, name));
    for (const auto& b : w->bindings)
      if (b.input == name && b.dim == e.dim && !b.is_stride) symbol = b.symbol;
  }
  const std::string range = w && e.dim >= 0 ? dim_contract(*w, e.input_index, e.dim) : "";
  f.subject = fmt::format("input {} {} dim {}", e.input_index, e.problem, e.dim);

  if (e.problem.starts_with("dim value is too")) {
    const bool large = e.problem.ends_with("large");
    f.title = fmt::format("{} dim {} is {}, {} the exported range {}", input, e.dim, e.actual,
                          large ? "above" : "below",
                          range.empty()              ? "(min/max)"
                          : range.starts_with("in ") ? range.substr(3)
                                                     : range);
    f.message = fmt::format(
        "The run passed size {} in dim {} of {}; the package was exported with that dim "
        "{}{}, and the input check refused it (expected {} {}).",
        e.actual, e.dim, input, range.empty() ? "bounded" : range,
        symbol.empty() ? ""
                       : fmt::format(" (symbol `{}` in the wrapper{})", symbol,
                                     w && !dim_name_or(*w, e.input_index, e.dim, "").empty()
                                         ? fmt::format(", your Dim `{}`",
                                                       dim_name_or(*w, e.input_index, e.dim, ""))
                                         : ""),
        large ? "<=" : ">=", e.expected);
    f.next_steps = {
        {fmt::format("re-export with a range for dim {} of {} that covers {}, then re-package",
                     e.dim, input, e.actual),
         dynamic_shapes_text(
             *w, e.input_index, e.dim,
             large ? fmt::format("torch.export.Dim(\"{}\", min={}, max={})",
                                 dim_name_or(*w, e.input_index, e.dim, "batch"), lower_bound(*w, e),
                                 e.actual)
                   : fmt::format("torch.export.Dim(\"{}\", min={})",
                                 dim_name_or(*w, e.input_index, e.dim, "batch"), e.actual)),
         "python"},
        {fmt::format("or split / pad the request so dim {} stays {}", e.dim,
                     range.empty() ? "in range" : range),
         ""}};
  } else if (e.problem == "unmatched dim value") {
    f.title = fmt::format("{} dim {} is {}, but the package was compiled for exactly {}", input,
                          e.dim, e.actual, e.expected);
    f.message = fmt::format("Dim {} of {} is static in the package (= {}); the run passed {}.",
                            e.dim, input, e.expected, e.actual);
    f.next_steps = {{fmt::format("if dim {} varies, export it as dynamic, then re-package", e.dim),
                     dynamic_shapes_text(*w, e.input_index, e.dim, "torch.export.Dim.DYNAMIC"),
                     "python"}};
  } else if (e.problem == "unmatched dtype") {
    const std::string want = dtype_name_of_code(e.expected), got = dtype_name_of_code(e.actual);
    f.title = fmt::format("{} is {}, but the package was compiled for {}", input, got, want);
    f.message = fmt::format("The input check compares dtype codes: expected {} ({}), got {} ({}).",
                            e.expected, want, e.actual, got);
    f.next_steps = {input_step(w, e.input_index, "cast before the call",
                               fmt::format("{{0}} = {{0}}.to(torch.{})", want)),
                    {fmt::format("or export and package a {} variant of the model", got), ""}};
  } else if (e.problem == "unmatched stride value") {
    f.title = fmt::format("{} has stride {} in dim {}, expected {}: it is not laid out as compiled",
                          input, e.actual, e.dim, e.expected);
    f.message = fmt::format(
        "The package was compiled for a contiguous layout (stride {} in dim {}); the run passed "
        "a tensor with stride {} there, e.g. a transposed or sliced view.",
        e.expected, e.dim, e.actual);
    f.next_steps = {{"pass a contiguous tensor", "x = x.contiguous()", "python"}};
  } else {
    f.title = fmt::format("{} was refused by the input check: {}", input, e.problem);
    f.message = fmt::format("expected {}, got {}", e.expected, e.actual);
  }
  f.why =
      "The compiled kernels assume exactly this contract; with AOTI_RUNTIME_CHECK_INPUTS unset the "
      "same input "
      "would run unchecked and crash or compute garbage.";
  f.evidence.push_back(event_evidence(e, "the runtime input check that fired"));
  if (w) {
    for (const auto& check : w->input_checks) {
      if (check.input_index != e.input_index) continue;
      if (check.kind != kind_of(e.problem) ||
          (check.kind != InputCheckKind::dtype && check.dim != e.dim))
        continue;
      f.evidence.push_back(quote_wrapper(*w, check.line,
                                         fmt::format("the package's contract for {}: {}", input,
                                                     input_contract(*w, e.input_index))));
    }
  }
  return f;
}
}  // namespace

std::vector<Finding> ShapeInputContractViolationCheck::run(const Case& c) const {
  std::vector<Finding> out;
  for (const auto& e : c.log_events) {
    if (e.kind != LogEventKind::input_check_error || e.problem == "unmatched device type") continue;
    out.push_back(explain(c, e));
  }
  return out;
}

}  // namespace aoti::checks
