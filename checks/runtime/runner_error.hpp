// runtime.runner-error: an error raised by the AOTI runtime or a C++ runner that no more specific
// check explains: a runner call that failed (`create_func_(...) API call failed at
// model_container_runner.cpp`) with the runtime's own `Error: <what>` before it, a wrong number of
// inputs, an exception out of AOTIModelPackageLoader.
#pragma once

#include "checks/check.hpp"

namespace aoti::checks {

class RuntimeRunnerErrorCheck final : public Check {
 public:
  static constexpr CheckInfo k_info{"runtime.runner-error", "runtime",
                                    "An error from the AOTI runtime or a C++ runner (a failed "
                                    "runner call, wrong inputs, a loader exception)"};
  const CheckInfo& info() const override { return k_info; }
  std::vector<model::Finding> run(const model::Case& c) const override;
};

}  // namespace aoti::checks
