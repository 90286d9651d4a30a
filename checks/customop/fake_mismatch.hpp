// customop.fake-mismatch: a custom op whose fake kernel disagrees with its real one, as the trace
// recorded it.
#pragma once

#include "checks/check.hpp"

namespace aoti::checks {

class CustomopFakeMismatchCheck final : public Check {
 public:
  static constexpr CheckInfo k_info{"customop.fake-mismatch", "customop",
                                    "A custom op whose fake kernel disagrees with the real one"};
  const CheckInfo& info() const override { return k_info; }
  std::vector<model::Finding> run(const model::Case& c) const override;
};

}  // namespace aoti::checks
