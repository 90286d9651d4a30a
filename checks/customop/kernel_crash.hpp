// customop.kernel-crash: a crash inside a library that is neither torch, the model, CUDA nor the
// system — a custom-op library — tied to the custom ops the package calls through the proxy
// executor.
#pragma once

#include "checks/check.hpp"

namespace aoti::checks {

class CustomopKernelCrashCheck final : public Check {
 public:
  static constexpr CheckInfo k_info{
      "customop.kernel-crash", "customop",
      "A crash inside a custom-op library, tied to the op the model called"};
  const CheckInfo& info() const override { return k_info; }
  std::vector<model::Finding> run(const model::Case& c) const override;
};

}  // namespace aoti::checks
