// aoti-analyze --backtrace CORE [PACKAGE or MODEL.so...]: every thread's frames, the crashing
// thread first.
#include <iostream>

#include "analyzer/cli/commands/commands.hpp"
#include "analyzer/cli/output.hpp"
#include "analyzer/pipeline/inspect.hpp"
#include "analyzer/report/backtrace.hpp"

namespace aoti::cli {

// The packages (or model .so files) serve their model .so for unwinding and symbols.
int run_backtrace(const Options& options) {
  const auto read = pipeline::inspect_core(options.backtrace, options.inputs);
  print_diagnostics(read.diagnostics);
  if (!read.core) {
    print_diagnostics({read.core.error()});
    return k_exit_usage;
  }
  std::cout << report::render_backtrace(*read.core);
  return k_exit_ok;
}

}  // namespace aoti::cli
