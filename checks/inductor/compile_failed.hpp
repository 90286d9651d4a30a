// inductor.compile-failed: Inductor failed to lower or generate code for the exported graph
// (LoweringException, a missing lowering or decomposition, InductorError, a Triton
// CompilationError, an error raised inside torch/_inductor) — from the log's traceback or the
// trace's failure record. A C++ build failure inside Inductor is build.compile-failed's.
#pragma once

#include "checks/check.hpp"

namespace aoti::checks {

class InductorCompileFailedCheck final : public Check {
 public:
  static constexpr CheckInfo k_info{"inductor.compile-failed", "inductor",
                                    "Inductor failed to lower or generate code for the graph"};
  const CheckInfo& info() const override { return k_info; }
  std::vector<model::Finding> run(const model::Case& c) const override;
};

}  // namespace aoti::checks
