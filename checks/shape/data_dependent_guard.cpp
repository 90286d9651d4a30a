// shape.data-dependent-guard: a guard on a data-dependent (unbacked) value — export or compile
// needed to know a value that only the data decides.
#include <fmt/format.h>

#include "checks/checks.hpp"
#include "checks/support.hpp"

namespace aoti::checks {
namespace {
using namespace aoti::core;

class DataDependentGuard final : public BasicCheck {
 public:
  DataDependentGuard()
      : BasicCheck("shape.data-dependent-guard", "A guard on a data-dependent (unbacked) value during export or compile") {}

  std::vector<Finding> run(const Case& c) const override {
    std::vector<Finding> out;
    for (const auto& trace : c.traces)
      for (const auto& event : trace.data_dependent) {
        // Provenance records explain a real-tensor propagation; only the guard error stops export.
        const bool error = event.kind == "guard_on_data_dependent_error";
        Finding f = new_finding(error ? Severity::error : Severity::warning, error ? 0.85 : 0.6);
        f.explains_failure = error;
        f.subject = "data-dependent " + event.expr;
        const TraceFrame* frame = event.user_frames.empty() ? nullptr : &event.user_frames.back();
        f.title = fmt::format("{} on the data-dependent expression `{}`", error ? "Export stopped at a guard" : "A guard was decided from real data",
                              event.expr);
        f.message = fmt::format("Tracing needed the value of `{}`, which depends on tensor data (an unbacked symbol such "
                                "as a `.item()` or `nonzero()` size){}.",
                                event.expr, frame ? fmt::format(", at {}:{}: `{}`", frame->file, frame->line, frame->code) : "");
        f.why = "A branch or check on a data-dependent size cannot be compiled once for every input: export fails, or "
                "the package assumes the value seen while tracing.";
        f.evidence.push_back(Evidence{Location{event.where.artifact, "", event.where.line}, fmt::format("{}: {}", event.kind, event.expr),
                                      "the trace's record"});
        if (frame) f.evidence.push_back(Evidence{Location{frame->file, "", frame->line}, frame->code, "the user line"});
        f.next_steps = {{"tell the compiler what the value can be instead of branching on it",
                         "torch._check(n >= 0); torch._check(n <= x.shape[0])"},
                        {"or move the data-dependent part out of the exported graph, or use torch.cond", ""}};
        out.push_back(std::move(f));
      }
    for (const auto& e : c.log_events) {
      if (e.problem != "data-dependent guard") continue;
      Finding f = new_finding(Severity::error, 0.8);
      f.explains_failure = true;
      f.subject = "data-dependent log " + e.text.substr(0, 80);
      f.title = "Export or compile stopped at a guard on a data-dependent value";
      f.message = fmt::format("The log reports `{}`.", e.text.substr(0, 300));
      f.why = "A branch or check on a data-dependent size cannot be compiled once for every input.";
      f.evidence.push_back(event_evidence(e, "the error"));
      f.next_steps = {rerun_step(c, "find the line with the trace", "TORCH_LOGS=\"+dynamic\" TORCH_TRACE=/tmp/trace"),
                      {"replace the branch by torch._check(...) on the value's range", ""}};
      out.push_back(std::move(f));
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Check> make_shape_data_dependent_guard() { return std::make_unique<DataDependentGuard>(); }

}  // namespace aoti::checks
