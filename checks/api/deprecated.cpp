// api.deprecated: torch._export.aot_compile / aot_load in use.
#include <fmt/format.h>

#include "checks/checks.hpp"
#include "checks/support.hpp"

namespace aoti::checks {
namespace {
using namespace aoti::core;

class Deprecated final : public BasicCheck {
 public:
  Deprecated() : BasicCheck("api.deprecated", "Deprecated AOTI APIs (torch._export.aot_compile / aot_load)") {}

  std::vector<Finding> run(const Case& c) const override {
    std::vector<Finding> out;
    for (const auto& e : c.log_events) {
      if (e.kind != LogEventKind::deprecated_api) continue;
      Finding f = new_finding(Severity::warning, 0.9);
      f.subject = "api " + e.subject;
      const bool load = e.subject.find("load") != std::string::npos;
      const std::string replacement = load ? "torch._inductor.aoti_load_package" : "torch._inductor.aoti_compile_and_package";
      f.title = fmt::format("`{}` is deprecated; use `{}`", e.subject, replacement);
      f.message = fmt::format("The program uses `{}`, which produces or loads a bare .so without the package's "
                              "metadata.", e.subject);
      f.why = "Without the package, the compile device is not recorded: the load device must be given by hand, "
              "and a mismatch (compile on CUDA, load on CPU) crashes. The package stores the device, and "
              "`aoti_load_package` picks it.";
      f.evidence.push_back(event_evidence(e, "the deprecated call"));
      f.next_steps = {
          {"compile and package with the current API",
           "torch._inductor.aoti_compile_and_package(torch.export.export(model, args), package_path=\"model.pt2\")"},
          {"load it; the package records its device", "runner = torch._inductor.aoti_load_package(\"model.pt2\")"}};
      out.push_back(std::move(f));
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Check> make_api_deprecated() { return std::make_unique<Deprecated>(); }

}  // namespace aoti::checks
