// aoti-analyze --list-checks and --explain CHECK: the registry and the check docs.
#include <iostream>

#include <fmt/format.h>

#include "analyzer/cli/commands/commands.hpp"
#include "analyzer/cli/output.hpp"
#include "checks/registry.hpp"

namespace aoti::cli {

int run_list_checks() {
  for (const auto& check : checks::all_checks())
    std::cout << fmt::format("{:<34} {}\n", check->id(), check->summary());
  return k_exit_ok;
}

int run_explain(const std::string& id) {
  const auto* check = checks::find_check(id);
  if (!check) {
    print_error("no check '" + id + "'; --list-checks lists them");
    return k_exit_usage;
  }
  std::cout << check->doc();
  return k_exit_ok;
}

}  // namespace aoti::cli
