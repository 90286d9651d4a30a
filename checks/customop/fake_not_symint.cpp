// customop.fake-not-symint: Python fake kernels that call int() on sizes, branch on them, hard-code
// shapes or read data.
#include "checks/customop/fake_not_symint.hpp"

#include "checks/customop/symint_findings.hpp"

namespace aoti::checks {

std::vector<model::Finding> CustomopFakeNotSymintCheck::run(const model::Case& c) const {
  return symint::kernel_findings(c, k_info, {'P', "Fake kernel"});
}

}  // namespace aoti::checks
