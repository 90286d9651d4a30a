#include "checks/support/crash.hpp"

#include <algorithm>
#include <array>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "checks/support/finding.hpp"
#include "model/describe.hpp"
#include "util/demangle.hpp"

namespace aoti::checks {
using namespace aoti::model;
using util::short_symbol;

const CoreThread* crashing_thread(const CoreFacts& core) {
  for (const auto& thread : core.threads)
    if (thread.crashed) return &thread;
  return core.threads.empty() ? nullptr : &core.threads.front();
}

CrashPhase crash_phase_of(const CoreFacts& core) {
  const CoreThread* thread = crashing_thread(core);
  if (!thread) return {};
  // The outermost call into the AOTI runtime's C API says which call the process was in.
  static constexpr std::pair<std::string_view, std::string_view> k_entry_points[] = {
      {"AOTInductorModelContainerCreate", "loading the model"},
      {"AOTInductorModelContainerDelete", "destroying the model"},
      {"AOTInductorModelContainerRun", "running the model"},
      {"AOTInductorModelContainerUpdate", "loading the model's constants"},
  };
  // Without an entry point, the runtime's own functions may say.
  static constexpr std::pair<std::string_view, std::string_view> k_markers[] = {
      {"AOTInductorModel::AOTInductorModel", "loading the model"},
      {"load_constants", "loading the model's constants"},
      {"~AOTInductorModelContainer", "destroying the model"},
      {"run_impl", "running the model"},
  };
  const auto found = [&](const StackFrame& frame, std::size_t index, std::string_view phase) {
    return CrashPhase{std::string(phase), !frame.unwound(), short_symbol(frame.symbol), index};
  };
  const auto& frames = thread->frames;
  // Names only: parameter types such as AOTIProxyExecutorOpaque* say nothing of the phase.
  for (std::size_t i = frames.size(); i-- > 0;)
    for (const auto& [marker, phase] : k_entry_points)
      if (frames[i].unwound() && short_symbol(frames[i].symbol).find(marker) != std::string::npos)
        return found(frames[i], i, phase);
  for (std::size_t i = 0; i < frames.size(); ++i)
    for (const auto& [marker, phase] : k_markers)
      if (frames[i].unwound() && short_symbol(frames[i].symbol).find(marker) != std::string::npos)
        return found(frames[i], i, phase);
  // Stack-scan frames are stale return addresses as often as real callers (a load's frames linger
  // on the stack of a later run): only a C API entry point, the outermost, suggests a phase.
  for (std::size_t i = frames.size(); i-- > 0;)
    for (const auto& [marker, phase] : k_entry_points)
      if (!frames[i].unwound() && short_symbol(frames[i].symbol).find(marker) != std::string::npos)
        return found(frames[i], i, phase);
  return {};
}

std::string crash_phase(const CoreFacts& core) {
  CrashPhase phase = crash_phase_of(core);
  return phase.from_stack_scan ? std::string() : std::move(phase.phase);
}

std::string crash_phase_clause(const CoreFacts& core) {
  const CrashPhase phase = crash_phase_of(core);
  if (phase.phase.empty()) return "";
  if (!phase.from_stack_scan) return "while " + phase.phase;
  return "probably while " + phase.phase + " (" + phase.symbol + ", frame #" +
         std::to_string(phase.frame) +
         ", is a return address found on the stack, not an unwound frame)";
}

bool is_cxx_runtime_symbol(std::string_view symbol) {
  return symbol.starts_with("std::") || symbol.starts_with("__cxxabiv1") ||
         symbol.starts_with("__gnu_cxx") || symbol.starts_with("__cxa_") ||
         symbol.starts_with("operator new") || symbol.starts_with("operator delete");
}

std::string module_name(std::string_view path) {
  const auto slash = path.find_last_of('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

bool is_known_library(std::string_view path) {
  static constexpr std::array<std::string_view, 25> k_prefixes = {
      "libtorch",  "libc10",   "libcaffe2", "libcuda",     "libcudart",   "libcublas", "libcudnn",
      "libnv",     "libcufft", "libcurand", "libcusparse", "libcusolver", "libnccl",   "libtriton",
      "libc.so",   "libc-",    "libm.so",   "libstdc++",   "libgcc_s",    "ld-linux",  "libpthread",
      "libpython", "libgomp",  "libomp",    "libiomp5"};
  const std::string name = module_name(path);
  if (name.starts_with("python")) return true;
  return std::any_of(k_prefixes.begin(), k_prefixes.end(),
                     [&](std::string_view p) { return name.starts_with(p); });
}

std::string candidate_frames(const CoreThread& thread, std::size_t max, const FrameFilter& keep) {
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < thread.frames.size() && lines.size() < max; ++i) {
    const StackFrame& frame = thread.frames[i];
    if (frame.unwound() || (frame.symbol.empty() && frame.package.empty()) || (keep && !keep(i)))
      continue;
    lines.push_back(frame_text(frame, i));
  }
  if (lines.empty()) return "";
  return std::string(k_stack_scan_label) + ":\n" + join(lines, "\n");
}

std::string frames_excerpt(const CoreThread& thread, std::size_t max, std::size_t max_candidates,
                           const FrameFilter& keep) {
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < thread.frames.size() && lines.size() < max; ++i)
    if (thread.frames[i].unwound() && (!keep || keep(i)))
      lines.push_back(frame_text(thread.frames[i], i));
  if (const std::string candidates = candidate_frames(thread, max_candidates, keep);
      !candidates.empty())
    lines.push_back(candidates);
  return join(lines, "\n");
}

const MappedModule* mapped(const CoreFacts& core, std::string_view prefix) {
  for (const auto& module : core.modules)
    if (module_name(module.path).starts_with(prefix)) return &module;
  return nullptr;
}

}  // namespace aoti::checks
