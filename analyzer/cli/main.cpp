// aoti-analyze: parses the command line and hands it to one command; the only place that maps
// outcomes to exit codes.
#include <exception>
#include <iostream>
#include <string>

#include "analyzer/cli/commands/commands.hpp"
#include "analyzer/cli/options.hpp"
#include "analyzer/cli/output.hpp"
#include "analyzer/version.hpp"

namespace {

using namespace aoti::cli;

int dispatch(const Options& options) {
  if (options.help) {
    std::cout << options.help_text;
    return k_exit_ok;
  }
  if (options.version) {
    std::cout << "aoti-analyze " << aoti::k_version << "\n";
    return k_exit_ok;
  }
  if (options.list_checks) return run_list_checks();
  if (!options.explain.empty()) return run_explain(options.explain);
  if (!options.backtrace.empty()) return run_backtrace(options);
  if (!options.summary.empty()) return run_summary(options);
  switch (options.command) {
    case Command::scan:
      return run_scan(options);
    case Command::merge:
      return run_merge(options);
    case Command::history:
      return run_history(options);
    case Command::analyze:
      break;
  }
  return run_analyze(options);
}

}  // namespace

int main(int argc, char** argv) {
  // Every error is meant to arrive here as a value; this is the net for a bug, so that it still
  // ends with a message and the documented status instead of std::terminate.
  try {
    const auto options = parse_options(argc, argv);
    if (!options) {
      std::cerr << "aoti-analyze: " << options.error().message << "\n"
                << "Try 'aoti-analyze --help'.\n";
      return k_exit_usage;
    }
    return dispatch(*options);
  } catch (const std::exception& ex) {
    print_error(std::string("internal error: ") + ex.what());
  } catch (...) {
    print_error("internal error: unknown exception");
  }
  return k_exit_usage;
}
