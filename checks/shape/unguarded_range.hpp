// shape.unguarded-range: a dynamic dim whose compiled range admits values a kernel cannot take.
// Read from the package alone: an index assert with a fixed bound (`index out of bounds: y0 < 512`)
// on an index computed from the launch's sizes (`y0 = (yindex % ks0)`, ks0 = a dim of an input),
// while the input contract lets that dim exceed the bound. The input checks pass such an input; the
// kernel's assert (or, without asserts, an illegal access) is where it fails.
#pragma once

#include "checks/check.hpp"

namespace aoti::checks {

class ShapeUnguardedRangeCheck final : public Check {
 public:
  static constexpr CheckInfo k_info{"shape.unguarded-range", "shape",
                                    "A dynamic dim whose compiled range exceeds a fixed size a "
                                    "kernel indexes with it (a table's rows)"};
  const CheckInfo& info() const override { return k_info; }
  std::vector<model::Finding> run(const model::Case& c) const override;
};

}  // namespace aoti::checks
