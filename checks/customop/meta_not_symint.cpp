// customop.meta-not-symint: C++ meta / CompositeImplicitAutograd kernels that read concrete sizes
// (`.size()`, `.sizes()`, `.numel()`), take `int64_t` for a `SymInt`, or build shapes with `at::empty`.
#include "checks/checks.hpp"
#include "checks/customop/symint_sources.hpp"

namespace aoti::checks {

std::unique_ptr<checks::Check> make_customop_meta_not_symint() {
  return std::make_unique<symint_sources::SymintSources>(
      "customop.meta-not-symint", "C++ meta kernels of custom ops that are not SymInt-aware", 'C', "Meta kernel");
}

}  // namespace aoti::checks
