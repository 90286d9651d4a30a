// runtime.openmp-conflict: Two OpenMP runtimes initialized in one process.
#pragma once

#include "checks/check.hpp"

namespace aoti::checks {

class RuntimeOpenmpConflictCheck final : public Check {
 public:
  static constexpr CheckInfo k_info{"runtime.openmp-conflict", "runtime",
                                    "Two OpenMP runtimes initialized in one process"};
  const CheckInfo& info() const override { return k_info; }
  std::vector<model::Finding> run(const model::Case& c) const override;
};

}  // namespace aoti::checks
