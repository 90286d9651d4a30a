// customop.fake-static-shape: a custom op fed dynamic inputs whose consumers were compiled for a
// constant size — the op's fake/meta kernel returned a static shape.
#pragma once

#include "checks/check.hpp"

namespace aoti::checks {

class CustomopFakeStaticShapeCheck final : public Check {
 public:
  static constexpr CheckInfo k_info{
      "customop.fake-static-shape", "customop",
      "A custom op with dynamic inputs whose output was compiled as a static shape"};
  const CheckInfo& info() const override { return k_info; }
  std::vector<model::Finding> run(const model::Case& c) const override;
};

}  // namespace aoti::checks
