// load.library-failed: a model .so / .pt2 or a custom-op library failed to load: the dynamic
// loader's reason (undefined symbol, missing library, symbol version, ELF class), a custom op whose
// library was never loaded, or kernel files missing where the model .so looks for them.
#pragma once

#include "checks/check.hpp"

namespace aoti::checks {

class LoadLibraryFailedCheck final : public Check {
 public:
  static constexpr CheckInfo k_info{"load.library-failed", "load",
                                    "A model .so / .pt2 or a custom-op library failed to load"};
  const CheckInfo& info() const override { return k_info; }
  std::vector<model::Finding> run(const model::Case& c) const override;
};

}  // namespace aoti::checks
