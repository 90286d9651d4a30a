// shape.unguarded-range: a dynamic dim whose compiled range admits values a kernel cannot take.
// Read from the package alone: an index assert with a fixed bound (`index out of bounds: y0 < 512`)
// on an index computed from the launch's sizes (`y0 = (yindex % ks0)`, ks0 = a dim of an input),
// while the input contract lets that dim exceed the bound. The input checks pass such an input; the
// kernel's assert (or, without asserts, an illegal access) is where it fails.
#include "checks/shape/unguarded_range.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "checks/support/contract.hpp"
#include "checks/support/finding.hpp"
#include "checks/support/kernels.hpp"

namespace aoti::checks {
namespace {
using namespace aoti::model;

Finding report(const WrapperFacts& w, const RangeHazard& r) {
  const TritonKernel& kernel = *r.kernel;
  const TritonAssert& assertion = *r.assertion;
  const std::string dim_name = dim_name_or(w, r.input_index, r.binding->dim, "");
  const std::string range =
      r.max ? fmt::format("[{}, {}]", r.min, *r.max) : fmt::format("[{}, int_oo]", r.min);
  const std::string table =
      r.table ? (r.table->original_fqn.empty() ? r.table->name : r.table->original_fqn) : "";
  Finding f = new_finding(ShapeUnguardedRangeCheck::k_info, Severity::warning, 0.85);
  f.subject = fmt::format("kernel {} {} dim {} of {}", kernel.name, assertion.message,
                          r.binding->dim, r.binding->input);
  f.title =
      fmt::format("Dim {} of {}{} is compiled for {}, but kernel `{}` indexes {} with it",
                  r.binding->dim, input_display(w, r.binding->input),
                  dim_name.empty() ? "" : fmt::format(" (Dim `{}`)", dim_name), range, kernel.name,
                  table.empty() ? fmt::format("only {} entries", r.bound)
                                : fmt::format("the {} rows of `{}`", r.bound, table));
  f.message = range_hazard_sentence(w, r) + ".";
  f.why =
      "The exported range is a promise the compiled kernels rely on: a size the contract admits "
      "but the "
      "kernel cannot take fails on the device (a device-side assert that aborts the process, or an "
      "illegal "
      "memory access where asserts are off), with no input-check error to say why.";
  f.evidence.push_back(quote_kernel(w, kernel, assertion.line, assertion.text, assertion.message,
                                    "the fixed bound the kernel asserts"));
  for (auto& e : range_hazard_evidence(w, r)) f.evidence.push_back(std::move(e));
  if (r.call)
    f.evidence.push_back(quote_wrapper(
        w, r.call->line, fmt::format("`{}` = `{}` at the launch", r.param, r.binding->symbol)));
  f.chain = {fmt::format("{} dim {} in {}", r.binding->input, r.binding->dim, range),
             fmt::format("{} = {}", r.param, r.binding->symbol),
             fmt::format("{} = {}", assertion.index_var, r.expression), assertion.message};
  f.next_steps = {range_hazard_fix(w, r)};
  return f;
}

}  // namespace

std::vector<Finding> ShapeUnguardedRangeCheck::run(const Case& c) const {
  std::vector<Finding> out;
  for (const auto& model : c.models) {
    if (!model.wrapper) continue;
    for (const auto& hazard : unguarded_ranges(*model.wrapper)) {
      // A log showing this very assert fired: triton.index-out-of-bounds explains that failure with
      // this same range, one finding for one cause.
      const bool fired =
          std::any_of(c.log_events.begin(), c.log_events.end(), [&](const LogEvent& e) {
            return e.kind == LogEventKind::triton_assert && e.subject == hazard.assertion->message;
          });
      if (!fired) out.push_back(report(*model.wrapper, hazard));
    }
  }
  return out;
}

}  // namespace aoti::checks
