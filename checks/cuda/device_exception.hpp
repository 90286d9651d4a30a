// cuda.device-exception: A kernel raised a device exception: the printer's last launch never
// returned, or the driver dumped the GPU.
#pragma once

#include "checks/check.hpp"

namespace aoti::checks {

class CudaDeviceExceptionCheck final : public Check {
 public:
  static constexpr CheckInfo k_info{"cuda.device-exception", "cuda",
                                    "A kernel raised a device exception: the printer's last launch "
                                    "never returned, or the driver dumped the GPU"};
  const CheckInfo& info() const override { return k_info; }
  std::vector<model::Finding> run(const model::Case& c) const override;
};

}  // namespace aoti::checks
