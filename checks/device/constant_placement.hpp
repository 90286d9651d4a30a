// device.constant-placement: constants whose device differs from the model's.
#pragma once

#include "checks/check.hpp"

namespace aoti::checks {

class DeviceConstantPlacementCheck final : public Check {
 public:
  static constexpr CheckInfo k_info{"device.constant-placement", "device",
                                    "Constants placed on another device than the model's"};
  const CheckInfo& info() const override { return k_info; }
  std::vector<model::Finding> run(const model::Case& c) const override;
};

}  // namespace aoti::checks
