// customop.meta-not-symint: C++ meta / CompositeImplicitAutograd kernels that read concrete sizes
// (`.size()`, `.sizes()`, `.numel()`), take `int64_t` for a `SymInt`, or build shapes with
// `at::empty`.
#pragma once

#include "checks/check.hpp"

namespace aoti::checks {

class CustomopMetaNotSymintCheck final : public Check {
 public:
  static constexpr CheckInfo k_info{"customop.meta-not-symint", "customop",
                                    "C++ meta kernels of custom ops that are not SymInt-aware"};
  const CheckInfo& info() const override { return k_info; }
  std::vector<model::Finding> run(const model::Case& c) const override;
};

}  // namespace aoti::checks
