// api.deprecated: torch._export.aot_compile / aot_load in use.
#include "checks/api/deprecated.hpp"

#include <algorithm>
#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "checks/support/contract.hpp"
#include "checks/support/finding.hpp"

namespace aoti::checks {
namespace {
using namespace aoti::model;

}  // namespace

std::vector<Finding> ApiDeprecatedCheck::run(const Case& c) const {
  // One finding per program (the folder its logs are in): the deprecation warning names both calls
  // in one line, and two programs are two places to change.
  std::map<std::string, std::vector<const LogEvent*>> by_program;
  for (const auto& e : c.log_events)
    if (e.kind == LogEventKind::deprecated_api)
      by_program[std::filesystem::path(e.where.artifact).parent_path().string()].push_back(&e);
  std::vector<Finding> out;
  for (const auto& [program, events] : by_program) {
    std::vector<std::string> apis;
    for (const LogEvent* e : events)
      if (std::find(apis.begin(), apis.end(), e->subject) == apis.end()) apis.push_back(e->subject);
    std::vector<std::string> quoted;
    for (const auto& api : apis) quoted.push_back("`" + api + "`");
    Finding f = new_finding(k_info, Severity::warning, 0.9);
    f.subject = "api torch._export " + program;
    f.title = fmt::format(
        "{} {} deprecated; use `torch._inductor.aoti_compile_and_package` / `aoti_load_package`",
        join(quoted, " and "), apis.size() == 1 ? "is" : "are");
    f.message = fmt::format(
        "The program uses {}, which {} a bare .so without the package's metadata.",
        join(quoted, " and "), apis.size() == 1 ? "produces or loads" : "produce and load");
    f.why =
        "Without the package, the compile device is not recorded: the load device must be given by "
        "hand, "
        "and a mismatch (compile on CUDA, load on CPU) crashes. The package stores the device, and "
        "`aoti_load_package` picks it.";
    for (const LogEvent* e : events)
      f.evidence.push_back(event_evidence(*e, "the deprecated call"));
    const std::string module = user_module_name(c);
    f.next_steps = {
        {"compile and package with the current API (args: the example inputs given to aot_compile)",
         fmt::format("torch._inductor.aoti_compile_and_package(torch.export.export({}, args), "
                     "package_path=\"model.pt2\")",
                     module),
         "python"},
        {"load it; the package records its device",
         "runner = torch._inductor.aoti_load_package(\"model.pt2\")", "python"}};
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace aoti::checks
