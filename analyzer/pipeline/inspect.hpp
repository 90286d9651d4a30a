// One artifact read on its own, for `--backtrace CORE [PACKAGE...]` and `--summary TRACE`: the same
// parsers load_case uses, without the rest of a case.
#pragma once

#include <string>
#include <vector>

#include <tl/expected.hpp>

#include "model/case.hpp"

namespace aoti::pipeline {

struct CoreInspection {
  std::vector<model::Diagnostic> diagnostics;              // models that could not serve their .so
  tl::expected<model::CoreFacts, model::Diagnostic> core;  // the error when the core cannot be read
};
// A core, unwound with the model .so files of `models` (packages or bare model .so files) served by
// build-id. A model that cannot be read is a diagnostic, and the core is still read.
CoreInspection inspect_core(const std::string& core, const std::vector<std::string>& models);

// A GPU core dump read on its own.
tl::expected<model::GpuCoreFacts, model::Diagnostic> inspect_gpu_core(const std::string& dump);

struct TraceInspection {
  model::TraceFacts trace;
  std::vector<model::Diagnostic> diagnostics;  // what of the trace could not be read
};
// A TORCH_TRACE log, a tlparse folder or a folder of logs; the error when nothing can be read.
// `verify_payloads`: check every payload's MD5, however large the log (--verify).
tl::expected<TraceInspection, model::Diagnostic> inspect_trace(const std::string& trace,
                                                               bool verify_payloads = false);

}  // namespace aoti::pipeline
