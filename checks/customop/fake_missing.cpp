// customop.fake-missing: a custom op without a fake kernel, as the trace recorded it.
#include "checks/checks.hpp"
#include "checks/customop/fake_kernel_events.hpp"

namespace aoti::checks {

std::unique_ptr<checks::Check> make_customop_fake_missing() {
  return std::make_unique<fake_kernel_events::FakeKernelEvents>("customop.fake-missing", "A custom op without a fake kernel", "missing_fake_kernel");
}

}  // namespace aoti::checks
