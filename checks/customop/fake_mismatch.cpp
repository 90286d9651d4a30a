// customop.fake-mismatch: a custom op whose fake kernel disagrees with its real one, as the trace
// recorded it.
#include "checks/customop/fake_mismatch.hpp"

#include <fmt/format.h>

#include "checks/customop/fake_kernel_events.hpp"
#include "checks/support/commands.hpp"
#include "checks/support/failures.hpp"
#include "checks/support/finding.hpp"

namespace aoti::checks {
using namespace aoti::model;

std::vector<Finding> CustomopFakeMismatchCheck::run(const Case& c) const {
  std::vector<Finding> out;
  for (const TraceFakeKernelEvent* event :
       fake_kernels::events_of_kind(c, "mismatched_fake_kernel")) {
    Finding f = new_finding(k_info, Severity::error, 0.85);
    f.subject = "op " + event->op;
    f.title = fmt::format("The fake kernel of `{}` disagrees with its real kernel", event->op);
    f.message =
        fmt::format("Running `{}` for real gave other metadata than its fake promised: {}.",
                    event->op, event->reason.empty() ? "(no reason recorded)" : event->reason);
    f.why =
        "The compiled graph trusts the fake: downstream kernels are sized from it, so the package "
        "computes wrong values or reads out of bounds.";
    f.evidence.push_back(fake_kernels::record_evidence(*event));
    f.next_steps = {
        {"make the fake compute exactly the real kernel's output shape, dtype and strides",
         fake_kernels::register_fake_stub(event->op), "python"},
        opcheck_step(c, event->op, "check it")};
    out.push_back(std::move(f));
  }
  // draft_export's report: `Mismatched fake kernel.` / `torch.ops.ns.op.default has a fake kernel
  // implementation, but it has incorrect behavior, based on the real kernel. The reason for the
  // mismatch is: ...`.
  for (const auto& e : c.log_events) {
    if (e.kind != LogEventKind::python_exception || e.problem != "fake mismatch") continue;
    const std::string op = parse_op_name(e.value).qualified();
    const std::string said = e.detail.empty() ? e.text : e.detail.front();
    const auto reason_at = said.find("The reason for the mismatch is: ");
    std::string reason = reason_at == std::string::npos ? "" : said.substr(reason_at + 32);
    while (!reason.empty() && (reason.back() == '.' || reason.back() == ' ')) reason.pop_back();
    Finding f = new_finding(k_info, Severity::error, 0.85);
    f.subject = "op " + op;
    f.title = fmt::format("The fake kernel of `{}` disagrees with its real kernel", op);
    f.message =
        fmt::format("draft_export ran `{}` for real and its fake kernel gave other metadata{}.", op,
                    reason.empty() ? "" : fmt::format(": {}", reason));
    f.why =
        "The compiled graph trusts the fake: downstream kernels are sized from it, so the package "
        "computes wrong values or reads out of bounds.";
    f.evidence.push_back(event_evidence(e, "draft_export's report"));
    failures::add_detail_evidence(e, 0, 1, "the reason it gives", f.evidence);
    f.next_steps = {
        {"make the fake compute exactly the real kernel's output shape, dtype and strides",
         fake_kernels::register_fake_stub(op), "python"},
        opcheck_step(c, op, "check it")};
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace aoti::checks
