// api.deprecated: torch._export.aot_compile / aot_load in use.
#include <algorithm>

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
    // One finding for the program: the deprecation warning names both calls in one line.
    std::vector<const LogEvent*> events;
    std::vector<std::string> apis;
    for (const auto& e : c.log_events)
      if (e.kind == LogEventKind::deprecated_api) {
        events.push_back(&e);
        if (std::find(apis.begin(), apis.end(), e.subject) == apis.end()) apis.push_back(e.subject);
      }
    if (events.empty()) return {};
    std::vector<std::string> quoted;
    for (const auto& api : apis) quoted.push_back("`" + api + "`");
    Finding f = new_finding(Severity::warning, 0.9);
    f.subject = "api torch._export";
    f.title = fmt::format("{} {} deprecated; use `torch._inductor.aoti_compile_and_package` / `aoti_load_package`",
                          join(quoted, " and "), apis.size() == 1 ? "is" : "are");
    f.message = fmt::format("The program uses {}, which produce or load a bare .so without the package's metadata.",
                            join(quoted, " and "));
    {
      f.why = "Without the package, the compile device is not recorded: the load device must be given by hand, "
              "and a mismatch (compile on CUDA, load on CPU) crashes. The package stores the device, and "
              "`aoti_load_package` picks it.";
      for (const LogEvent* e : events) f.evidence.push_back(event_evidence(*e, "the deprecated call"));
      f.next_steps = {
          {"compile and package with the current API",
           "torch._inductor.aoti_compile_and_package(torch.export.export(model, args), package_path=\"model.pt2\")", "python"},
          {"load it; the package records its device", "runner = torch._inductor.aoti_load_package(\"model.pt2\")", "python"}};
    }
    return {std::move(f)};
  }
};

}  // namespace

std::unique_ptr<Check> make_api_deprecated() { return std::make_unique<Deprecated>(); }

}  // namespace aoti::checks
