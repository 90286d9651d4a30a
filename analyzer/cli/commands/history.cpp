// aoti-analyze history --db FILE: what is new, fixed and recurring since the previous scan.
#include "analyzer/report/history.hpp"
#include "analyzer/cli/commands/commands.hpp"
#include "analyzer/cli/commands/scan_common.hpp"
#include "analyzer/cli/output.hpp"

namespace aoti::cli {

int run_history(const Options& options) {
  auto db = open_history(options);
  if (!db) return db.error();
  const auto history = (*db)->history();
  if (!history) {
    print_error(options.db + ": " + history.error());
    return k_exit_usage;
  }
  return emit(options, report::render_history(*history)) ? k_exit_ok : k_exit_usage;
}

}  // namespace aoti::cli
