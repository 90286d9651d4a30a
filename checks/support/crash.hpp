// What checks conclude from a core dump's threads: which thread crashed and what the process was
// doing then. Judgements over frames, not facts a parser read.
#pragma once

#include <cstddef>
#include <string>

#include "model/facts/core_dump.hpp"

namespace aoti::checks {

// The thread the kernel marked as crashed, else the first one (gcore writes no mark); null when the
// core has no threads.
const model::CoreThread* crashing_thread(const model::CoreFacts& core);

// What the process was doing when it died, and which frame says so.
struct CrashPhase {
  std::string phase;             // "loading the model", "running the model", ...; "" when no frame says
  bool from_stack_scan = false;  // only a stack-scan candidate says so: a likely phase, not a known one
  std::string symbol;            // the frame's short name, "AOTInductorModelContainerRun"
  std::size_t frame = 0;         // its index in the crashing thread
};
// From the crashing thread's unwound frames; only when they say nothing, from a C API entry point
// among the stack-scan candidates (marked so).
CrashPhase crash_phase_of(const model::CoreFacts& core);
// The phase the unwound frames show: "loading the model", "loading the model's constants",
// "running the model", "destroying the model", or "" when they do not say.
std::string crash_phase(const model::CoreFacts& core);
// For prose: "while running the model", or, from a candidate, "probably while running the model
// (AOTInductorModelContainerRun, frame #42, is a return address found on the stack, not an unwound
// frame)", or "".
std::string crash_phase_clause(const model::CoreFacts& core);

}  // namespace aoti::checks
