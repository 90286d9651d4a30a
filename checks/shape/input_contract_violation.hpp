// shape.input-contract-violation: runtime input-check errors, explained against the package's
// contract.
#pragma once

#include "checks/check.hpp"

namespace aoti::checks {

class ShapeInputContractViolationCheck final : public Check {
 public:
  static constexpr CheckInfo k_info{
      "shape.input-contract-violation", "shape",
      "An input violated the package's compiled contract (size, dtype, stride)"};
  const CheckInfo& info() const override { return k_info; }
  std::vector<model::Finding> run(const model::Case& c) const override;
};

}  // namespace aoti::checks
