// customop.fake-mismatch: a custom op whose fake kernel disagrees with its real one, as the trace
// recorded it.
#include "checks/customop/fake_mismatch.hpp"

#include <fmt/format.h>

#include "checks/customop/fake_kernel_events.hpp"
#include "checks/support/commands.hpp"

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
  return out;
}

}  // namespace aoti::checks
