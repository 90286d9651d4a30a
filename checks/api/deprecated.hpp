// api.deprecated: torch._export.aot_compile / aot_load in use.
#pragma once

#include "checks/check.hpp"

namespace aoti::checks {

class ApiDeprecatedCheck final : public Check {
 public:
  static constexpr CheckInfo k_info{"api.deprecated", "api",
                                    "Deprecated AOTI APIs (torch._export.aot_compile / aot_load)"};
  const CheckInfo& info() const override { return k_info; }
  std::vector<model::Finding> run(const model::Case& c) const override;
};

}  // namespace aoti::checks
