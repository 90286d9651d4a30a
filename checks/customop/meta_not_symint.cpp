// customop.meta-not-symint: C++ meta / CompositeImplicitAutograd kernels that read concrete sizes
// (`.size()`, `.sizes()`, `.numel()`), take `int64_t` for a `SymInt`, or build shapes with `at::empty`.
#include "checks/checks.hpp"
#include "checks/customop/symint_findings.hpp"
#include "checks/support.hpp"

namespace aoti::checks {
namespace {

class MetaNotSymint final : public BasicCheck {
 public:
  MetaNotSymint() : BasicCheck("customop.meta-not-symint", "C++ meta kernels of custom ops that are not SymInt-aware") {}

  std::vector<model::Finding> run(const model::Case& c) const override {
    return symint::kernel_findings(c, {'C', "Meta kernel"},
                                   [this](model::Severity s, double confidence) { return new_finding(s, confidence); });
  }
};

}  // namespace

std::unique_ptr<checks::Check> make_customop_meta_not_symint() { return std::make_unique<MetaNotSymint>(); }

}  // namespace aoti::checks
