// customop.fake-missing: a custom op without a fake kernel, as the trace recorded it or a log
// reported it.
#include "checks/customop/fake_missing.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "checks/customop/fake_kernel_events.hpp"
#include "checks/support/commands.hpp"
#include "checks/support/failures.hpp"
#include "checks/support/finding.hpp"
#include "util/text.hpp"

namespace aoti::checks {
namespace {
using namespace aoti::model;

// The op a missing-fake error names: torch.library.custom_op's `There was no fake impl registered
// for <CustomOpDef(ns::op)>`, the Meta fallback's `ns::op: attempted to run this operator with Meta
// tensors`, draft_export's `torch.ops.ns.op.default is missing a fake kernel implementation`.
std::string op_in(const std::string& text) {
  // Dynamo's `unsupported operator: corpus.row_scale.default` -> "corpus::row_scale".
  if (const auto at = text.find("unsupported operator: "); at != std::string::npos) {
    std::string path = text.substr(at + 22);
    path = path.substr(0, path.find_first_of(" \n,)"));
    if (const auto dot = path.find('.'); dot != std::string::npos) {
      path.replace(dot, 1, "::");
      if (const auto overload = path.rfind('.'); overload != std::string::npos && overload > dot)
        path.resize(overload);
      return path;
    }
  }
  if (const auto at = text.find("<CustomOpDef("); at != std::string::npos) {
    const auto end = text.find(")>", at);
    if (end != std::string::npos) return text.substr(at + 13, end - at - 13);
  }
  // c10's dispatcher: `Could not run 'mylib::foo' with arguments from the 'Meta' backend.`
  if (const auto at = text.find("Could not run '"); at != std::string::npos) {
    const auto end = text.find("' with arguments from the 'Meta' backend", at);
    if (end != std::string::npos) return text.substr(at + 15, end - at - 15);
  }
  if (const auto at = text.find(": attempted to run this operator with Meta tensors");
      at != std::string::npos) {
    const auto start = text.find_last_of(" '\"(", at);
    return text.substr(start == std::string::npos ? 0 : start + 1,
                       at - (start == std::string::npos ? 0 : start + 1));
  }
  return "";
}

// The exception line first, then the lines of its message (a wrapper's first line, such as
// `RuntimeError when making fake tensor call`, leaves the op to a later one).
std::string op_of(const LogEvent& e) {
  if (auto op = op_in(e.text); !op.empty()) return op;
  for (const auto& line : e.detail)
    if (auto op = op_in(line); !op.empty()) return op;
  if (e.subject == "draft_export" && e.value.starts_with("torch.ops.")) {
    // "torch.ops.ns.op.default" -> "ns::op"
    std::string path = e.value.substr(10);
    if (const auto dot = path.find('.'); dot != std::string::npos) path.replace(dot, 1, "::");
    if (const auto overload = path.rfind('.');
        overload != std::string::npos && overload > path.find("::"))
      path.resize(overload);
    return path;
  }
  return "";
}

Finding from_log(const Case& c, const LogEvent& e) {
  const std::string op = op_of(e);
  const std::string name = op.empty() ? "a custom op" : "`" + op + "`";
  Finding f = new_finding(CustomopFakeMissingCheck::k_info, Severity::error, 0.85);
  f.explains_failure = true;
  f.subject = "op " + (op.empty() ? cut(e.text, 60) : op);
  f.title = op.empty() ? std::string("A custom op has no fake (meta) kernel")
                       : fmt::format("Custom op {} has no fake (meta) kernel", name);
  f.message =
      e.text.find("expected to contain only concrete integers") != std::string::npos
          ? fmt::format(
                "A C++ kernel that reads sizes as plain integers ran on the symbolic shapes of a "
                "trace: with no fake or Meta kernel for {}, the kernel its registration names ran "
                "instead (inferred from c10's check; the log reports `{}`).",
                name, cut(e.text, 300))
          : fmt::format(
                "Tracing needed the output shape of {} without running it, and no fake kernel is "
                "registered for it: the log reports `{}`.",
                name, cut(e.text, 300));
  f.why =
      "Without a fake kernel the op cannot be traced with symbolic shapes: torch.compile and "
      "export fail on it.";
  f.evidence.push_back(event_evidence(e, "the error"));
  if (!op.empty() && op_in(e.text).empty())
    for (std::size_t i = 0; i < e.detail.size(); ++i)
      if (op_in(e.detail[i]) == op) {
        f.evidence.push_back(failures::line_evidence(e, e.where.line + 1 + static_cast<int>(i),
                                                     std::string(util::trim(e.detail[i])),
                                                     "the line of the message that names the op"));
        break;
      }
  if (e.user_frame >= 0 && static_cast<std::size_t>(e.user_frame) < e.frames.size()) {
    const auto& frame = e.frames[static_cast<std::size_t>(e.user_frame)];
    f.evidence.push_back(
        failures::line_evidence(e, frame.log_line, frame.text, "the user line that called the op"));
    if (!frame.code.empty()) f.evidence.push_back(failures::code_evidence(e, frame, "the call"));
  }
  if (!op.empty())
    f.next_steps = {
        {"register a fake kernel that computes the output's shape, dtype and device from the "
         "inputs' (for an "
         "op made with torch.library.custom_op, its `register_fake` method does the same)",
         fake_kernels::register_fake_stub(op), "python"},
        opcheck_step(c, op, "check it")};
  return f;
}

Finding from_trace_failure(const Case& c, const TraceFacts& trace, const TraceFailure& failure,
                           const std::string& op) {
  const std::string name = op.empty() ? "a custom op" : "`" + op + "`";
  Finding f = new_finding(CustomopFakeMissingCheck::k_info, Severity::error, 0.8);
  f.explains_failure = true;
  f.subject = "op " + (op.empty() ? failure.fail_type : op);
  f.title = op.empty() ? std::string("A custom op has no fake (meta) kernel")
                       : fmt::format("Custom op {} has no fake (meta) kernel", name);
  const std::string frame = failures::user_frame_in(failure.reason);
  if (failure.problem_inferred) {
    f.confidence = 0.5;
    f.title += " (inferred)";
    f.message = fmt::format(
        "The trace records make_fx failing while it traced {}: the last call of the partial graph "
        "it logged{}. The record gives no reason; a custom op stops tracing there when no fake or "
        "Meta kernel is registered for it.",
        name, failure.value.empty() ? "" : fmt::format(" (`{}`)", failure.value));
  } else {
    f.message = fmt::format(
        "The trace's {} record fails with `{}`, and its reason states that {} cannot run on fake "
        "tensors: no fake or Meta kernel is registered for it{}.",
        failure.origin, failure.fail_type, name,
        frame.empty() ? "" : "; called from your code at " + frame);
  }
  f.why =
      "Without a fake kernel the op cannot be traced with symbolic shapes: torch.compile and "
      "export fail on it.";
  f.evidence.push_back(failures::trace_failure_evidence(failure));
  if (failure.problem_inferred)
    f.evidence.push_back(fact(Location{failure.where.artifact, "", failure.where.line},
                              fmt::format("last call of the partial graph: {}", failure.symbol),
                              "the op make_fx was tracing when it failed"));
  for (std::size_t start = 0; start < failure.reason.size();) {
    const auto end = std::min(failure.reason.find('\n', start), failure.reason.size());
    const std::string line = failure.reason.substr(start, end - start);
    if (!op_in(line).empty()) {
      f.evidence.push_back(fact(Location{failure.where.artifact, "", 0},
                                "fail_reason: " + std::string(util::trim(line)),
                                "the line of the record's reason that names the op"));
      break;
    }
    start = end + 1;
  }
  f.next_steps.push_back(
      {"read the trace with tlparse", fmt::format("tlparse {}", shell_word(trace.artifact))});
  if (!op.empty()) {
    f.next_steps.insert(
        f.next_steps.begin(),
        {{"register a fake kernel that computes the output's shape, dtype and device "
          "from the inputs'",
          fake_kernels::register_fake_stub(op), "python"},
         opcheck_step(c, op, "check it")});
  }
  return f;
}

}  // namespace

std::vector<Finding> CustomopFakeMissingCheck::run(const Case& c) const {
  std::vector<Finding> out;
  for (const TraceFakeKernelEvent* event : fake_kernels::events_of_kind(c, "missing_fake_kernel")) {
    Finding f = new_finding(k_info, Severity::error, 0.85);
    f.explains_failure = true;  // export cannot trace an op without a fake
    f.subject = "op " + event->op;
    f.title = fmt::format("Custom op `{}` has no fake (meta) kernel", event->op);
    f.message = fmt::format(
        "Export needed the output shape of `{}` without running it, and no fake "
        "kernel is registered for it.",
        event->op);
    f.why =
        "Without a fake kernel the op cannot be traced with symbolic shapes; export fails or falls "
        "back.";
    f.evidence.push_back(fake_kernels::record_evidence(*event));
    f.next_steps = {{"register a fake kernel that computes the output shape from the inputs' sizes",
                     fake_kernels::register_fake_stub(event->op), "python"},
                    opcheck_step(c, event->op, "check it")};
    out.push_back(std::move(f));
  }
  for (const auto& e : c.log_events)
    if (e.kind == LogEventKind::python_exception && e.problem == "missing fake")
      out.push_back(from_log(c, e));
  // A failure record whose reason states it (`There was no fake impl registered for
  // <CustomOpDef(ns::op)>` a few lines into a `RuntimeError when making fake tensor call`), when
  // neither the trace's own records nor a log of the same run report the op.
  for (const auto& trace : c.traces)
    for (const auto& failure : trace.failures) {
      if (failure.problem != "missing fake") continue;
      // A finding of the same run (its log) takes the record as one more piece of evidence.
      const std::string op = failure.problem_inferred ? parse_op_name(failure.symbol).qualified()
                                                      : op_in(failure.reason);
      failures::join_or_add(out, failure,
                            [&] { return from_trace_failure(c, trace, failure, op); });
      break;  // the first failure stopped the export; later records repeat it
    }
  return out;
}

}  // namespace aoti::checks
