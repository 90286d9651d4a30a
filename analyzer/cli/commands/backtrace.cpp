// aoti-analyze --backtrace CORE [PACKAGE or MODEL.so...]: every thread's frames, the crashing
// thread first.
#include <iostream>
#include <string>
#include <vector>

#include "analyzer/cli/commands/commands.hpp"
#include "analyzer/cli/output.hpp"
#include "analyzer/pipeline/inspect.hpp"
#include "analyzer/pipeline/sniff.hpp"
#include "analyzer/report/backtrace.hpp"

namespace aoti::cli {

// The packages (or model .so files) serve their model .so for unwinding and symbols; a GPU core
// dump, as CORE or among the others, has its faulting warps shown after the CPU threads.
int run_backtrace(const Options& options) {
  std::vector<std::string> gpu_cores, models;
  const bool cpu_core = pipeline::sniff(options.backtrace, options.backtrace).kind !=
                        model::ArtifactKind::gpu_core_dump;
  if (!cpu_core) gpu_cores.push_back(options.backtrace);
  for (const auto& input : options.inputs)
    (pipeline::sniff(input, input).kind == model::ArtifactKind::gpu_core_dump ? gpu_cores : models)
        .push_back(input);
  if (cpu_core) {
    const auto read = pipeline::inspect_core(options.backtrace, models);
    print_diagnostics(read.diagnostics);
    if (!read.core) {
      print_diagnostics({read.core.error()});
      return k_exit_usage;
    }
    std::cout << report::render_backtrace(*read.core);
  }
  for (const auto& path : gpu_cores) {
    const auto gpu = pipeline::inspect_gpu_core(path);
    if (!gpu) {
      print_diagnostics({gpu.error()});
      return k_exit_usage;
    }
    std::cout << (cpu_core || &path != &gpu_cores.front() ? "\n" : "")
              << report::render_gpu_backtrace(*gpu);
  }
  return k_exit_ok;
}

}  // namespace aoti::cli
