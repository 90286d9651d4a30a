// customop.fake-not-symint: Python fake kernels that call int() on sizes, branch on them, hard-code
// shapes or read data.
#include "checks/checks.hpp"
#include "checks/customop/symint_sources.hpp"

namespace aoti::checks {

std::unique_ptr<checks::Check> make_customop_fake_not_symint() {
  return std::make_unique<symint_sources::SymintSources>(
      "customop.fake-not-symint", "Python fake kernels of custom ops that are not SymInt-aware", 'P', "Fake kernel");
}

}  // namespace aoti::checks
