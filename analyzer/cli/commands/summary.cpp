// aoti-analyze --summary TRACE: what a TORCH_TRACE log or tlparse folder holds.
#include <iostream>

#include "analyzer/cli/commands/commands.hpp"
#include "analyzer/cli/output.hpp"
#include "analyzer/pipeline/inspect.hpp"
#include "analyzer/report/trace_summary.hpp"

namespace aoti::cli {

// What the trace holds, then (on stdout, as part of the summary) what of it could not be read.
int run_summary(const Options& options) {
  const auto read = pipeline::inspect_trace(options.summary, options.verify);
  if (!read) {
    print_diagnostics({read.error()});
    return k_exit_usage;
  }
  std::cout << report::render_trace_summary(read->trace);
  for (const auto& d : read->diagnostics)
    std::cout << "diagnostic: " << d.artifact << ": " << d.message << "\n";
  return k_exit_ok;
}

}  // namespace aoti::cli
