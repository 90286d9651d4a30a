// What checks conclude from a core dump's threads (which thread crashed, what the process was doing
// then: judgements over frames, not facts a parser read), and how they show frames and modules.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "model/facts/core_dump.hpp"
#include "model/location.hpp"

namespace aoti::checks {

// The thread the kernel marked as crashed, else the first one (gcore writes no mark); null when the
// core has no threads.
const model::CoreThread* crashing_thread(const model::CoreFacts& core);

// What the process was doing when it died, and which frame says so.
struct CrashPhase {
  std::string phase;  // "loading the model", "running the model", ...; "" when no frame says
  bool from_stack_scan =
      false;              // only a stack-scan candidate says so: a likely phase, not a known one
  std::string symbol;     // the frame's short name, "AOTInductorModelContainerRun"
  std::size_t frame = 0;  // its index in the crashing thread
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

// Frames of the C++ runtime itself: std::, __cxxabiv1, __gnu_cxx.
bool is_cxx_runtime_symbol(std::string_view symbol);

// Which frames (by index in the thread) a frame list shows.
using FrameFilter = std::function<bool(std::size_t index)>;

// A crashing thread's frames for evidence: the unwound call path (frames `keep` accepts, at most
// `max`), then apart, under model::k_stack_scan_label, at most `max_candidates` stack-scan frames
// that have a name or lie in a model .so. A stack-scan frame is never shown as part of the path.
std::string frames_excerpt(const model::CoreThread& thread, std::size_t max,
                           std::size_t max_candidates, const FrameFilter& keep = {});

// Only the candidate part of frames_excerpt(), without the path: "" when there is none.
std::string candidate_frames(const model::CoreThread& thread, std::size_t max,
                             const FrameFilter& keep = {});

std::string module_name(std::string_view path);  // the file name of a module path

// Libraries whose crash is not a custom op's: torch, CUDA and its math libraries, Triton, the C
// and C++ runtimes, Python (by the file name of `path`).
bool is_known_library(std::string_view path);

// The process mapped a module whose file name starts with `prefix` ("libstdc++.so.6",
// "libcuda.so").
const model::MappedModule* mapped(const model::CoreFacts& core, std::string_view prefix);

}  // namespace aoti::checks
