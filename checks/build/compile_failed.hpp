// build.compile-failed: the generated wrapper / kernel C++ (or a C++ extension) failed to compile
// or link: the first compiler error with the file it is in, the command that ran, and why it
// failed.
#pragma once

#include "checks/check.hpp"

namespace aoti::checks {

class BuildCompileFailedCheck final : public Check {
 public:
  static constexpr CheckInfo k_info{
      "build.compile-failed", "build",
      "The generated wrapper or kernel C++ (or a C++ extension) failed to compile or link"};
  const CheckInfo& info() const override { return k_info; }
  std::vector<model::Finding> run(const model::Case& c) const override;
};

}  // namespace aoti::checks
