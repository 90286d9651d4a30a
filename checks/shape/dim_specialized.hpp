// shape.dim-specialized: a dim marked dynamic that export or compile turned into a constant, with
// the user frame that did it (from the trace) and the custom ops to suspect.
#pragma once

#include "checks/check.hpp"

namespace aoti::checks {

class ShapeDimSpecializedCheck final : public Check {
 public:
  static constexpr CheckInfo k_info{
      "shape.dim-specialized", "shape",
      "A dim marked dynamic was specialized to a constant during export"};
  const CheckInfo& info() const override { return k_info; }
  std::vector<model::Finding> run(const model::Case& c) const override;
};

}  // namespace aoti::checks
