// device.input-mismatch: an input on another device than the one the package was compiled for.
#pragma once

#include "checks/check.hpp"

namespace aoti::checks {

class DeviceInputMismatchCheck final : public Check {
 public:
  static constexpr CheckInfo k_info{"device.input-mismatch", "device",
                                    "An input tensor lives on another device than the package's"};
  const CheckInfo& info() const override { return k_info; }
  std::vector<model::Finding> run(const model::Case& c) const override;
};

}  // namespace aoti::checks
