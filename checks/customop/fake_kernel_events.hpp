// The trace's fake-kernel events, shared by customop.fake-missing and customop.fake-mismatch: the
// same record shape, a different event name.
#pragma once

#include <fmt/format.h>

#include "checks/failure_support.hpp"
#include "checks/support.hpp"

namespace aoti::checks::fake_kernel_events {

using namespace aoti::model;

class FakeKernelEvents final : public BasicCheck {
 public:
  FakeKernelEvents(std::string_view id, std::string_view summary, std::string_view event)
      : BasicCheck(id, summary), m_event(event) {}

  std::vector<Finding> run(const Case& c) const override {
    std::vector<Finding> out;
    const bool missing = m_event == "missing_fake_kernel";
    for (const auto& trace : c.traces)
      for (const auto& event : trace.fake_kernels) {
        if (event.kind != m_event) continue;
        Finding f = new_finding(Severity::error, 0.85);
        f.explains_failure = missing;  // export cannot trace an op without a fake
        f.subject = "op " + event.op;
        f.title = missing ? fmt::format("Custom op `{}` has no fake (meta) kernel", event.op)
                          : fmt::format("The fake kernel of `{}` disagrees with its real kernel", event.op);
        f.message = missing ? fmt::format("Export needed the output shape of `{}` without running it, and no fake "
                                          "kernel is registered for it.", event.op)
                            : fmt::format("Running `{}` for real gave other metadata than its fake promised: {}.", event.op,
                                          event.reason.empty() ? "(no reason recorded)" : event.reason);
        f.why = missing ? "Without a fake kernel the op cannot be traced with symbolic shapes; export fails or falls back."
                        : "The compiled graph trusts the fake: downstream kernels are sized from it, so the package "
                          "computes wrong values or reads out of bounds.";
        f.evidence.push_back(Evidence{Location{event.where.artifact, "", event.where.line},
                                      fmt::format("{}: {}{}", event.kind, event.op, event.reason.empty() ? "" : " — " + event.reason),
                                      "the trace's record"});
        f.next_steps = {{missing ? "register a fake kernel that computes the output shape from the inputs' sizes"
                                 : "make the fake compute exactly the real kernel's output shape, dtype and strides",
                         fmt::format("@torch.library.register_fake(\"{}\")\ndef _(*args, **kwargs):\n    # return empty tensors of the "
                                     "output's shape, computed from the inputs' sizes\n    raise NotImplementedError",
                                     parse_op_name(event.op).qualified()),
                         "python"},
                        opcheck_step(c, event.op, "check it")};
        out.push_back(std::move(f));
      }
    if (missing)
      for (const auto& e : c.log_events)
        if (e.kind == LogEventKind::python_exception && e.problem == "missing fake") out.push_back(from_log(c, e));
    return out;
  }

 private:
  // The op a missing-fake error names: torch.library.custom_op's `There was no fake impl registered
  // for <CustomOpDef(ns::op)>`, the Meta fallback's `ns::op: attempted to run this operator with Meta
  // tensors`, draft_export's `torch.ops.ns.op.default is missing a fake kernel implementation`.
  static std::string op_of(const LogEvent& e) {
    const std::string& text = e.text;
    if (const auto at = text.find("<CustomOpDef("); at != std::string::npos) {
      const auto end = text.find(")>", at);
      if (end != std::string::npos) return text.substr(at + 13, end - at - 13);
    }
    if (const auto at = text.find(": attempted to run this operator with Meta tensors"); at != std::string::npos) {
      const auto start = text.find_last_of(" '\"(", at);
      return text.substr(start == std::string::npos ? 0 : start + 1, at - (start == std::string::npos ? 0 : start + 1));
    }
    if (e.subject == "draft_export" && e.value.starts_with("torch.ops.")) {
      // "torch.ops.ns.op.default" -> "ns::op"
      std::string path = e.value.substr(10);
      if (const auto dot = path.find('.'); dot != std::string::npos) path.replace(dot, 1, "::");
      if (const auto overload = path.rfind('.'); overload != std::string::npos && overload > path.find("::")) path.resize(overload);
      return path;
    }
    return "";
  }

  Finding from_log(const Case& c, const LogEvent& e) const {
    const std::string op = op_of(e);
    const std::string name = op.empty() ? "a custom op" : "`" + op + "`";
    Finding f = new_finding(Severity::error, 0.85);
    f.explains_failure = true;
    f.subject = "op " + (op.empty() ? cut(e.text, 60) : op);
    f.title = fmt::format("Custom op {} has no fake (meta) kernel", name);
    f.message = fmt::format("Tracing needed the output shape of {} without running it, and no fake kernel is registered "
                            "for it: the log reports `{}`.", name, cut(e.text, 300));
    f.why = "Without a fake kernel the op cannot be traced with symbolic shapes: torch.compile and export fail on it.";
    f.evidence.push_back(event_evidence(e, "the error"));
    if (e.user_frame >= 0 && static_cast<std::size_t>(e.user_frame) < e.frames.size()) {
      const auto& frame = e.frames[static_cast<std::size_t>(e.user_frame)];
      f.evidence.push_back(failures::line_evidence(e, frame.log_line, frame.text, "the user line that called the op"));
      if (!frame.code.empty()) f.evidence.push_back(failures::line_evidence(e, frame.log_line + 1, frame.code, "the call"));
    }
    if (!op.empty())
      f.next_steps = {{"register a fake kernel that computes the output's shape, dtype and device from the inputs' (for an "
                       "op made with torch.library.custom_op, its `register_fake` method does the same)",
                       fmt::format("@torch.library.register_fake(\"{}\")\ndef _(*args, **kwargs):\n    # return empty tensors of the "
                                   "output's shape, computed from the inputs' sizes\n    raise NotImplementedError",
                                   parse_op_name(op).qualified()),
                       "python"},
                      opcheck_step(c, op, "check it")};
    return f;
  }

  std::string_view m_event;
};


}  // namespace aoti::checks::fake_kernel_events
