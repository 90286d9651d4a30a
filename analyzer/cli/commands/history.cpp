// aoti-analyze history --db FILE: what is new, fixed and recurring since the previous scan.
#include <exception>

#include "analyzer/cli/commands/commands.hpp"
#include "analyzer/cli/commands/scan_common.hpp"
#include "analyzer/cli/output.hpp"
#include "analyzer/report/history.hpp"

namespace aoti::cli {

int run_history(const Options& options) {
  auto db = open_history(options);
  if (!db) return db.error();
  try {
    return emit(options, report::render_history((*db)->history())) ? k_exit_ok : k_exit_usage;
  } catch (const std::exception& ex) {
    print_error(options.db + ": " + ex.what());
    return k_exit_usage;
  }
}

}  // namespace aoti::cli
