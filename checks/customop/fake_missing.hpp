// customop.fake-missing: a custom op without a fake kernel, as the trace recorded it or a log
// reported it.
#pragma once

#include "checks/check.hpp"

namespace aoti::checks {

class CustomopFakeMissingCheck final : public Check {
 public:
  static constexpr CheckInfo k_info{"customop.fake-missing", "customop",
                                    "A custom op without a fake kernel"};
  const CheckInfo& info() const override { return k_info; }
  std::vector<model::Finding> run(const model::Case& c) const override;
};

}  // namespace aoti::checks
