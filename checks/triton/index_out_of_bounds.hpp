// triton.index-out-of-bounds: an index assert that fired — a Triton `tl.device_assert` or a C++
// kernel's `AOTI_TORCH_CHECK`, in every form torch's `indirect_assert` writes (both sides, lower
// only, upper only; the bound a literal, a kernel parameter or an expression of them) — traced from
// its text to the kernel, its launch, the wrapper symbol or constant behind the bound, and the
// input the index came from.
#pragma once

#include "checks/check.hpp"

namespace aoti::checks {

class TritonIndexOutOfBoundsCheck final : public Check {
 public:
  static constexpr CheckInfo k_info{"triton.index-out-of-bounds", "triton",
                                    "An index assert (Triton device assert or C++ kernel check) "
                                    "`index out of bounds`, traced to kernel, bound and input"};
  const CheckInfo& info() const override { return k_info; }
  std::vector<model::Finding> run(const model::Case& c) const override;
};

}  // namespace aoti::checks
