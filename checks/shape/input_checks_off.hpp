// shape.input-checks-off: the package enforces its input contract only with
// AOTI_RUNTIME_CHECK_INPUTS=1.
#pragma once

#include "checks/check.hpp"

namespace aoti::checks {

class ShapeInputChecksOffCheck final : public Check {
 public:
  static constexpr CheckInfo k_info{
      "shape.input-checks-off", "shape",
      "The input contract is enforced only with AOTI_RUNTIME_CHECK_INPUTS=1, and it was off"};
  const CheckInfo& info() const override { return k_info; }
  std::vector<model::Finding> run(const model::Case& c) const override;
};

}  // namespace aoti::checks
