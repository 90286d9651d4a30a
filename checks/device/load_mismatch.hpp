// device.load-mismatch: a package compiled for one device type, loaded or run as another.
#pragma once

#include "checks/check.hpp"

namespace aoti::checks {

class DeviceLoadMismatchCheck final : public Check {
 public:
  static constexpr CheckInfo k_info{
      "device.load-mismatch", "device",
      "A package compiled for one device type, loaded or run as another"};
  const CheckInfo& info() const override { return k_info; }
  std::vector<model::Finding> run(const model::Case& c) const override;
};

}  // namespace aoti::checks
