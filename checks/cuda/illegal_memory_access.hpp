// cuda.illegal-memory-access: IMA triage — the kernels that could have done it and the next
// commands.
#pragma once

#include "checks/check.hpp"

namespace aoti::checks {

class CudaIllegalMemoryAccessCheck final : public Check {
 public:
  static constexpr CheckInfo k_info{
      "cuda.illegal-memory-access", "cuda",
      "A CUDA illegal memory access: suspects and the commands to find it"};
  const CheckInfo& info() const override { return k_info; }
  std::vector<model::Finding> run(const model::Case& c) const override;
};

}  // namespace aoti::checks
