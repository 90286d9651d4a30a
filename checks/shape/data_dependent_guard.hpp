// shape.data-dependent-guard: a guard on a data-dependent (unbacked) value — export or compile
// needed to know a value that only the data decides.
#pragma once

#include "checks/check.hpp"

namespace aoti::checks {

class ShapeDataDependentGuardCheck final : public Check {
 public:
  static constexpr CheckInfo k_info{
      "shape.data-dependent-guard", "shape",
      "A guard on a data-dependent (unbacked) value during export or compile"};
  const CheckInfo& info() const override { return k_info; }
  std::vector<model::Finding> run(const model::Case& c) const override;
};

}  // namespace aoti::checks
