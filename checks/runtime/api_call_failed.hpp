// runtime.api-call-failed: `... API call failed at <hash>.wrapper.cpp, line N` tied to the wrapper
// line, the model code it implements, and the custom op when it is a proxy-executor call.
#pragma once

#include "checks/check.hpp"

namespace aoti::checks {

class RuntimeApiCallFailedCheck final : public Check {
 public:
  static constexpr CheckInfo k_info{
      "runtime.api-call-failed", "runtime",
      "An AOTI runtime call in the generated wrapper failed, tied to its line and model code"};
  const CheckInfo& info() const override { return k_info; }
  std::vector<model::Finding> run(const model::Case& c) const override;
};

}  // namespace aoti::checks
