// runtime.cxx-runtime-conflict: a model .so that carries its own static libstdc++ and exports the
// C++ runtime's symbols: in a process that already maps libstdc++.so.6 (every PyTorch process), two
// copies of std::locale, iostreams and the exception runtime meet, which crashes at load.
#pragma once

#include "checks/check.hpp"

namespace aoti::checks {

class RuntimeCxxRuntimeConflictCheck final : public Check {
 public:
  static constexpr CheckInfo k_info{
      "runtime.cxx-runtime-conflict", "runtime",
      "A model .so with its own static libstdc++ in a process that maps another one"};
  const CheckInfo& info() const override { return k_info; }
  std::vector<model::Finding> run(const model::Case& c) const override;
};

}  // namespace aoti::checks
