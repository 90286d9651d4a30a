// The trace's fake-kernel events, shared by customop.fake-missing and customop.fake-mismatch: the
// same record shape, a different event name.
#pragma once

#include <fmt/format.h>

#include "checks/support.hpp"

namespace aoti::checks::fake_kernel_events {

using namespace aoti::core;

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
    return out;
  }

 private:
  std::string_view m_event;
};


}  // namespace aoti::checks::fake_kernel_events
