// customop.kernel-crash: a crash inside a library that is neither torch, the model, CUDA nor the
// system — a custom-op library — tied to the custom ops the package calls through the proxy
// executor.
#include "checks/customop/kernel_crash.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "checks/support/commands.hpp"
#include "checks/support/crash.hpp"
#include "checks/support/finding.hpp"

namespace aoti::checks {
namespace {
using namespace aoti::model;

// Libraries whose crash is not a custom op's: torch, CUDA and its math libraries, Triton, the C and
// C++ runtimes, Python.
bool is_known_library(const std::string& path) {
  static constexpr std::array<std::string_view, 22> k_prefixes = {
      "libtorch",  "libc10",     "libcuda",   "libcudart",   "libcublas",   "libcudnn",
      "libnv",     "libcufft",   "libcurand", "libcusparse", "libcusolver", "libnccl",
      "libtriton", "libc.so",    "libc-",     "libm.so",     "libstdc++",   "libgcc_s",
      "ld-linux",  "libpthread", "libpython", "libgomp"};
  const std::string name = module_name(path);
  if (name.starts_with("python")) return true;
  return std::any_of(k_prefixes.begin(), k_prefixes.end(),
                     [&](std::string_view p) { return name.starts_with(p); });
}

}  // namespace

std::vector<Finding> CustomopKernelCrashCheck::run(const Case& c) const {
  std::vector<Finding> out;
  for (const auto& core : c.cores) {
    const CoreThread* thread = crashing_thread(core);
    if (!thread) continue;
    // The innermost unwound frame with a known module decides; a stack-scan frame is only a
    // candidate.
    const auto frame =
        std::find_if(thread->frames.begin(), thread->frames.end(),
                     [](const StackFrame& f) { return f.unwound() && !f.module.empty(); });
    if (frame == thread->frames.end() || !frame->package.empty() || is_known_library(frame->module))
      continue;
    // A model .so that torch extracted from a package (<dir>/<name>/data/aotinductor/<model>/...)
    // is the model itself, even when the package was not given: never a custom-op library.
    if (frame->module.find("/data/aotinductor/") != std::string::npos) continue;
    const std::size_t index = static_cast<std::size_t>(frame - thread->frames.begin());

    std::vector<std::string> ops;
    for (const auto& model : c.models)
      for (const auto& node : model.extern_nodes) ops.push_back(node.target);
    Finding f = new_finding(k_info, Severity::error, ops.empty() ? 0.6 : 0.85);
    f.explains_failure = true;
    f.subject = "custom op crash " + module_name(frame->module);
    f.title = fmt::format("{} inside custom-op library {}{}", core.signal_name,
                          module_name(frame->module),
                          ops.empty() ? "" : fmt::format(" (the package calls {})", join(ops)));
    f.message = fmt::format(
        "The crashing thread {} died in `{}` of {}, a library that is neither torch, the model, "
        "CUDA nor the system{}. "
        "{}",
        thread->tid,
        frame->symbol.empty() ? fmt::format("0x{:x}", frame->pc) : frame->symbol.substr(0, 120),
        frame->module, crash_phase_clause(core).empty() ? "" : ", " + crash_phase_clause(core),
        ops.empty()
            ? "No package in the case calls a custom op through the proxy executor."
            : fmt::format(
                  "The model runs {} through the proxy executor: the crash is in its kernel.",
                  join(ops)));
    f.why =
        "A custom op's real kernel runs on the inputs AOTI hands it, trusting shapes its fake "
        "kernel "
        "promised; an unchecked index or a size mismatch there crashes the whole process.";
    f.evidence.push_back(Evidence{
        core_location(core),
        fmt::format("{} ({}){}", core.signal_name, core.signal_code_name,
                    core.fault_address ? fmt::format(" at 0x{:x}", *core.fault_address) : ""),
        core.fault_region.empty() ? "the crash" : "the fault: " + core.fault_region});
    // The path as unwound; a phase taken from a stack-scan candidate shows that candidate too.
    const CrashPhase phase = crash_phase_of(core);
    const std::string frames =
        frames_excerpt(*thread, 8, 0) +
        (phase.from_stack_scan
             ? "\n" + candidate_frames(*thread, 1, [&](std::size_t i) { return i == phase.frame; })
             : "");
    f.evidence.push_back(Evidence{
        core_location(core), frames,
        fmt::format("the crashing thread: frame #{} is in {}", index, module_name(frame->module))});
    for (const auto& model : c.models)
      for (const auto& node : model.extern_nodes)
        f.evidence.push_back(
            Evidence{model.extern_nodes_where, node.target, "a custom op the package calls"});
    // With the op's sources in the case, the kernels that ran on this device are the suspects.
    for (const auto& source : c.sources)
      for (const auto& kernel : source.kernels)
        if (!kernel.traced && std::find(ops.begin(), ops.end(), kernel.op) != ops.end() &&
            kernel.line_begin > 0)
          f.evidence.push_back(Evidence{
              Location{source.artifact, "", kernel.line_begin},
              fmt::format("{} ({} kernel of {}, lines {}-{})", kernel.function, kernel.dispatch_key,
                          kernel.op, kernel.line_begin, kernel.line_end),
              "the op's real kernel: check every index and size it trusts"});
    f.next_steps = {{"give the analyzer the op's sources (OP_SOURCES: the folder of its .cpp / .py "
                     "files) to check its "
                     "meta / fake kernel",
                     reanalyze_command(c, "\"$OP_SOURCES\"")},
                    opcheck_step(c, ops.empty() ? "" : ops.front(),
                                 "check the op alone against its fake at the failing sizes"),
                    rerun_step(c, "run once with the checks on to stop at the first bad input",
                               "AOTI_RUNTIME_CHECK_INPUTS=1 TORCH_SHOW_CPP_STACKTRACES=1")};
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace aoti::checks
