// customop.fake-not-symint: Python fake kernels that call int() on sizes, branch on them, hard-code
// shapes or read data.
#pragma once

#include "checks/check.hpp"

namespace aoti::checks {

class CustomopFakeNotSymintCheck final : public Check {
 public:
  static constexpr CheckInfo k_info{"customop.fake-not-symint", "customop",
                                    "Python fake kernels of custom ops that are not SymInt-aware"};
  const CheckInfo& info() const override { return k_info; }
  std::vector<model::Finding> run(const model::Case& c) const override;
};

}  // namespace aoti::checks
