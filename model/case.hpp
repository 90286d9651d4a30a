// The Case: every fact the parsers found, as plain data. Checks read only this.
#pragma once

#include <vector>

#include "model/artifact.hpp"
#include "model/facts/core_dump.hpp"
#include "model/facts/debug_run.hpp"
#include "model/facts/gpu_core.hpp"
#include "model/facts/log.hpp"
#include "model/facts/package.hpp"
#include "model/facts/source.hpp"
#include "model/facts/trace.hpp"
#include "model/location.hpp"

namespace aoti::model {

struct Case {
  std::vector<Artifact> artifacts;
  std::vector<Diagnostic> diagnostics;
  std::vector<PackageFacts> packages;
  std::vector<ModelFacts> models;
  std::vector<LogEvent> log_events;
  std::vector<DebugRunFacts> debug_runs;  // the debugging flags' own output, per log or dump folder
  std::vector<CoreFacts> cores;
  std::vector<GpuCoreFacts> gpu_cores;
  std::vector<TraceFacts> traces;
  std::vector<SourceFacts> sources;
};

}  // namespace aoti::model
