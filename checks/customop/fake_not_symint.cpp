// customop.fake-not-symint: Python fake kernels that call int() on sizes, branch on them, hard-code
// shapes or read data.
#include "checks/checks.hpp"
#include "checks/customop/symint_findings.hpp"
#include "checks/support.hpp"

namespace aoti::checks {
namespace {

class FakeNotSymint final : public BasicCheck {
 public:
  FakeNotSymint() : BasicCheck("customop.fake-not-symint", "Python fake kernels of custom ops that are not SymInt-aware") {}

  std::vector<model::Finding> run(const model::Case& c) const override {
    return symint::kernel_findings(c, {'P', "Fake kernel"},
                                   [this](model::Severity s, double confidence) { return new_finding(s, confidence); });
  }
};

}  // namespace

std::unique_ptr<checks::Check> make_customop_fake_not_symint() { return std::make_unique<FakeNotSymint>(); }

}  // namespace aoti::checks
