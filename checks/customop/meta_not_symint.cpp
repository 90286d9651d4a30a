// customop.meta-not-symint: C++ meta / CompositeImplicitAutograd kernels that read concrete sizes
// (`.size()`, `.sizes()`, `.numel()`), take `int64_t` for a `SymInt`, or build shapes with
// `at::empty`.
#include "checks/customop/meta_not_symint.hpp"

#include "checks/customop/symint_findings.hpp"

#include <fmt/format.h>

#include "checks/support/commands.hpp"
#include "checks/support/crash.hpp"
#include "checks/support/failures.hpp"
#include "checks/support/finding.hpp"

namespace aoti::checks {
namespace {
using namespace aoti::model;

// `Cannot call sizes() on tensor with ...` -> "sizes()".
std::string_view accessor_in(std::string_view text) {
  const auto at = text.find("Cannot call ");
  const auto end = text.find(" on tensor", at);
  return at == std::string_view::npos || end == std::string_view::npos
             ? std::string_view("sizes()")
             : text.substr(at + 12, end - at - 12);
}

// c10's `Cannot call sizes() on tensor with symbolic sizes/strides` in a log: a C++ kernel read
// concrete sizes while a graph was traced. The native frames under it (TORCH_SHOW_CPP_STACKTRACES)
// that are an extension's own name the kernel; without them the log says only that one did.
Finding from_log(const Case& c, const LogEvent& e) {
  Finding f = new_finding(CustomopMetaNotSymintCheck::k_info, Severity::error, 0.65);
  f.explains_failure = true;
  const auto frames = failures::library_frames(e, 2);
  const std::string accessor(accessor_in(e.value.empty() ? e.text : e.value));
  f.subject = "symbolic sizes read " + (frames.empty() ? e.subject : frames.front()->function);
  f.title = frames.empty() ? fmt::format(
                                 "A C++ kernel read concrete sizes (`{}`) of a tensor traced with "
                                 "symbolic sizes",
                                 accessor)
                           : fmt::format(
                                 "`{}` read concrete sizes (`{}`) of a tensor traced with symbolic "
                                 "sizes",
                                 cut(frames.front()->function, 80), accessor);
  f.message = fmt::format(
      "c10 refused `{}` on a tensor whose sizes are symbolic: a C++ kernel that is not "
      "SymInt-aware ran while the graph was traced (export, or torch.compile with dynamic "
      "shapes){}.",
      accessor,
      frames.empty() ? "; the log shows no native frames that name it"
                     : fmt::format(": the native frames name `{}` in {}", frames.front()->function,
                                   module_name(frames.front()->file)));
  f.why =
      "While a graph is traced, tensors carry symbolic sizes; a C++ kernel that runs then (a Meta "
      "kernel, or a CompositeImplicitAutograd one without a Meta kernel) must read them with "
      "`sym_sizes()` / `sym_size(i)` and build shapes from `c10::SymInt`, not `sizes()`, "
      "`size(i)` or `int64_t`.";
  f.evidence.push_back(event_evidence(e, "c10's refusal"));
  for (const LogFrame* frame : frames)
    f.evidence.push_back(failures::line_evidence(
        e, frame->log_line, frame->text,
        fmt::format("a native frame under it, in {}", module_name(frame->file))));
  failures::add_user_frame_evidence(e, f.evidence);
  f.next_steps = {
      rerun_step(c, "re-run with C++ stack traces, to name the kernel that read the sizes",
                 "TORCH_SHOW_CPP_STACKTRACES=1"),
      {"give the op's C++ sources to the analyzer (OP_SOURCES: their folder), to find each "
       "concrete-size read",
       reanalyze_command(c, "\"$OP_SOURCES\"")}};
  f.chain = {"traced graph", frames.empty() ? "a C++ kernel" : frames.front()->function,
             "concrete sizes read"};
  return f;
}

}  // namespace

std::vector<model::Finding> CustomopMetaNotSymintCheck::run(const model::Case& c) const {
  auto out = symint::kernel_findings(c, k_info, {'C', "Meta kernel"});
  for (const auto& e : c.log_events)
    if (e.problem == "concrete sizes of a symbolic tensor" &&
        e.kind == LogEventKind::python_exception) {
      out.push_back(from_log(c, e));
      break;
    }
  return out;
}

}  // namespace aoti::checks
