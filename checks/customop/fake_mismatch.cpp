// customop.fake-mismatch: a custom op whose fake kernel disagrees with its real one, as the trace
// recorded it.
#include "checks/checks.hpp"
#include "checks/customop/fake_kernel_events.hpp"

namespace aoti::checks {

std::unique_ptr<checks::Check> make_customop_fake_mismatch() {
  return std::make_unique<fake_kernel_events::FakeKernelEvents>("customop.fake-mismatch",
                                            "A custom op whose fake kernel disagrees with the real one",
                                            "mismatched_fake_kernel");
}

}  // namespace aoti::checks
