// export.failed: torch.export / Dynamo failed to trace the model — from the log's traceback
// (torch._dynamo.exc.Unsupported, UserError, TorchRuntimeError, export's own errors) or from the
// trace's compilation_metrics failure record. Failures another check explains better (a
// data-dependent guard, a specialized dim, a custom op without a fake) are left to it.
#pragma once

#include "checks/check.hpp"

namespace aoti::checks {

class ExportFailedCheck final : public Check {
 public:
  static constexpr CheckInfo k_info{"export.failed", "export",
                                    "torch.export / Dynamo failed to trace the model"};
  const CheckInfo& info() const override { return k_info; }
  std::vector<model::Finding> run(const model::Case& c) const override;
};

}  // namespace aoti::checks
