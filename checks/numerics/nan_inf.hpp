// numerics.nan-inf: A NaN or Inf first appears in a kernel's output (TORCHINDUCTOR_NAN_ASSERTS, the
// printer's values or dumps).
#pragma once

#include "checks/check.hpp"

namespace aoti::checks {

class NumericsNanInfCheck final : public Check {
 public:
  static constexpr CheckInfo k_info{"numerics.nan-inf", "numerics",
                                    "A NaN or Inf first appears in a kernel's output "
                                    "(TORCHINDUCTOR_NAN_ASSERTS, the printer's values or dumps)"};
  const CheckInfo& info() const override { return k_info; }
  std::vector<model::Finding> run(const model::Case& c) const override;
};

}  // namespace aoti::checks
