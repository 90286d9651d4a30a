// customop.meta-not-symint: C++ meta / CompositeImplicitAutograd kernels that read concrete sizes
// (`.size()`, `.sizes()`, `.numel()`), take `int64_t` for a `SymInt`, or build shapes with
// `at::empty`.
#include "checks/customop/meta_not_symint.hpp"

#include "checks/customop/symint_findings.hpp"

namespace aoti::checks {

std::vector<model::Finding> CustomopMetaNotSymintCheck::run(const model::Case& c) const {
  return symint::kernel_findings(c, k_info, {'C', "Meta kernel"});
}

}  // namespace aoti::checks
