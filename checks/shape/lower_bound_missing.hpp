// shape.lower-bound-missing: a dim whose declared range admits 0 (or 1) bounds an index assert in a
// kernel: an empty input makes the bound 0 and every index out of bounds.
#pragma once

#include "checks/check.hpp"

namespace aoti::checks {

class ShapeLowerBoundMissingCheck final : public Check {
 public:
  static constexpr CheckInfo k_info{
      "shape.lower-bound-missing", "shape",
      "A dim whose range admits 0 or 1 bounds a kernel's index assert"};
  const CheckInfo& info() const override { return k_info; }
  std::vector<model::Finding> run(const model::Case& c) const override;
};

}  // namespace aoti::checks
