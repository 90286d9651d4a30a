// customop.kernel-crash: a crash inside a library that is neither torch, the model, CUDA nor the
// system — a custom-op library — tied to the custom ops the package calls through the proxy
// executor; or a GPU fault (from a GPU core dump) in a CUDA kernel that is not the package's own,
// tied through the op's .cu source (the kernel, the host function that launches it, the op that
// function implements) to the op the package calls.
#include "checks/customop/kernel_crash.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "checks/support/commands.hpp"
#include "checks/support/crash.hpp"
#include "checks/support/failures.hpp"
#include "checks/support/finding.hpp"
#include "checks/support/kernels.hpp"
#include "model/describe.hpp"
#include "util/demangle.hpp"
#include "util/text.hpp"

namespace aoti::checks {
namespace {
using namespace aoti::model;

// Kernels of torch and of CUDA's own libraries, by the namespace of their demangled names: a fault
// there is not a custom op's kernel, whatever module it is in.
bool is_library_kernel(std::string_view name) {
  static constexpr std::array<std::string_view, 8> k_namespaces = {
      "at::", "c10::", "cub::", "cutlass::", "thrust::", "cudnn", "cublas", "flash::"};
  return name.starts_with("triton_") ||
         std::any_of(k_namespaces.begin(), k_namespaces.end(),
                     [&](std::string_view ns) { return name.starts_with(ns); });
}

// How many parameters a demangled signature lists ("f(float const*, long)" -> 2); nullopt without
// a parameter list (an unmangled name).
std::optional<int> parameter_count(std::string_view demangled) {
  const auto open = demangled.find('(');
  if (open == std::string_view::npos) return std::nullopt;
  int depth = 0, count = 0;
  bool any = false;
  for (std::size_t i = open + 1; i < demangled.size(); ++i) {
    const char ch = demangled[i];
    if (ch == '(' || ch == '<') ++depth;
    if ((ch == ')' || ch == '>') && depth > 0) {
      --depth;
      continue;
    }
    if (ch == ')' && depth == 0) break;
    if (ch == ',' && depth == 0) ++count;
    if (ch != ' ') any = true;
  }
  return any && demangled.substr(open + 1).rfind("void)", 0) != 0 ? count + 1 : 0;
}

struct KernelSource {
  const SourceFacts* source = nullptr;
  const SourceCudaKernel* kernel = nullptr;
};

// The .cu kernel the faulting symbol is: the same (qualified) name and parameter count.
KernelSource kernel_source(const Case& c, const std::string& demangled) {
  const std::string name = util::short_symbol(demangled);
  const auto params = parameter_count(demangled);
  for (const auto& source : c.sources)
    for (const auto& k : source.cuda_kernels)
      if ((k.qualified_name == name || k.name == name) && (!params || *params == k.parameters))
        return {&source, &k};
  return {};
}

// The line of the given source that the line table's `at.line` is, found by content: the line
// table numbers the file as it was built (another name, another version), so the kernel's own
// definition is the anchor. Its lowest row in the table is the line of the kernel's name (nvcc's
// -lineinfo numbers the kernel's prologue with it: rowops.cu's kernel, named on line 5, has rows
// 5 to 11), matched to the line of that name in the given file; the faulting line is as far
// below it in both, and must fall inside the kernel's body there.
struct MappedLine {
  int line = 0;           // in the given file; 0 when it cannot be placed inside the kernel's body
  int shift = 0;          // given - built
  bool anchored = false;  // the line table gave the kernel's lowest line (else assumed equal)
};

MappedLine map_line(const GpuCodeLocation& at, const SourceCudaKernel& k) {
  MappedLine m;
  if (at.line <= 0 || k.body_line <= 0 || k.text.empty()) return m;
  m.anchored = at.kernel_first_line > 0;
  m.shift = m.anchored ? k.line - at.kernel_first_line : 0;
  const int line = at.line + m.shift;
  // Inside the body, and a line with code on it.
  if (line <= k.body_line || line >= k.line_end) return m;
  const std::string& text = k.text[static_cast<std::size_t>(line - k.line_begin)];
  if (util::trim(text).empty()) return m;
  m.line = line;
  return m;
}

std::string text_at(const SourceCudaKernel& k, int line) {
  return line >= k.line_begin && line <= k.line_end && !k.text.empty()
             ? k.text[static_cast<std::size_t>(line - k.line_begin)]
             : std::string();
}

Evidence quote_line(const SourceFacts& source, int line, const std::string& text,
                    std::string note) {
  Evidence e{Location{source.artifact, "", line}, quoted_line(text), std::move(note)};
  e.kind = EvidenceKind::quote;
  return e;
}

// The custom op whose CUDA kernel (a SourceKernel registered for CUDA) launches `kernel`.
struct OpImpl {
  const SourceKernel* impl = nullptr;
  const CudaLaunch* launch = nullptr;
};

OpImpl op_of(const Case& c, const SourceCudaKernel& kernel) {
  for (const auto& launch : kernel.launches)
    for (const auto& source : c.sources)
      for (const auto& k : source.kernels)
        if (!k.traced && !k.function.empty() && k.function == launch.function) return {&k, &launch};
  return {};
}

struct ProxySite {
  const ModelFacts* model = nullptr;
  const ProxyCall* call = nullptr;
  const ExternNode* node = nullptr;
};

// The wrapper's proxy-executor calls of `op` (every op the package calls when `op` is empty).
std::vector<ProxySite> proxy_sites(const Case& c, const GpuCoreFacts& core, const std::string& op) {
  std::vector<ProxySite> out;
  for (const auto& model : c.models) {
    // The packages of the dump's own run (its folder), when several runs are analyzed at once.
    if (!model.wrapper || !same_run(core.artifact, model.package)) continue;
    for (const auto& call : model.wrapper->proxy_calls)
      for (const auto& node : model.extern_nodes)
        if (node.index == call.extern_node_index && (op.empty() || node.target == op))
          out.push_back({&model, &call, &node});
  }
  return out;
}

std::optional<Finding> gpu_finding(const Case& c, const GpuCoreFacts& core) {
  const auto warp =
      std::find_if(core.faulting_warps.begin(), core.faulting_warps.end(), [](const GpuWarp& w) {
        const auto* at = w.error ? &*w.error : w.stop ? &*w.stop : nullptr;
        return at && !at->kernel.empty();
      });
  if (warp == core.faulting_warps.end()) return std::nullopt;
  const GpuCodeLocation& at = warp->error ? *warp->error : *warp->stop;
  const GpuModule* module =
      at.module && *at.module < core.modules.size() ? &core.modules[*at.module] : nullptr;
  // The package's own code (its cubins, its wrapper's kernels) is not a custom op's.
  if (module && package_cubin(c, *module)) return std::nullopt;
  for (const auto& model : c.models)
    if (model.wrapper && find_kernel(*model.wrapper, at.kernel)) return std::nullopt;
  const std::string name = gpu_kernel_name(at);
  const std::string short_name = util::short_symbol(name);
  const KernelSource source = kernel_source(c, name);
  const OpImpl impl = source.kernel ? op_of(c, *source.kernel) : OpImpl{};
  const std::string op = impl.impl ? impl.impl->op : "";
  const auto sites = proxy_sites(c, core, op);
  // Without the kernel's source, only a kernel outside torch's and CUDA's libraries in a process
  // whose package calls custom ops is one, and then as an inference.
  if (!source.kernel && (sites.empty() || is_library_kernel(short_name))) return std::nullopt;
  const MappedLine mapped = source.kernel ? map_line(at, *source.kernel) : MappedLine{};

  const Location dump{core.artifact, "", 0};
  Finding f = new_finding(CustomopKernelCrashCheck::k_info, Severity::error,
                          impl.impl && !sites.empty() ? 0.95
                          : source.kernel             ? 0.85
                                                      : 0.6);
  f.explains_failure = true;
  f.subject = fmt::format("custom op gpu fault {}", at.kernel);
  std::vector<std::string> called;
  for (const auto& site : sites)
    if (std::find(called.begin(), called.end(), site.node->target) == called.end())
      called.push_back(site.node->target);

  const std::string where_line =
      mapped.line > 0
          ? fmt::format(" at line {} of {}", mapped.line,
                        std::filesystem::path(source.source->artifact).filename().string())
          : "";
  f.title = op.empty() ? fmt::format(
                             "{} in CUDA kernel `{}`, not the package's code (the package calls {} "
                             "through the proxy executor)",
                             warp->exception_name, short_name, join(called))
                       : fmt::format("{} in `{}`, the CUDA kernel of custom op `{}`{}",
                                     warp->exception_name, short_name, op, where_line);

  // What the dump says, and that the code is not the package's.
  f.evidence.push_back(fact(
      dump,
      fmt::format("{} at PC {:#x} in {}; {}", warp->exception_name, at.pc, gpu_location_text(at),
                  gpu_warp_text(*warp)),
      warp->error ? "the warp's error PC, symbolized through the cubin in the dump (its symbol "
                    "table and line table)"
                  : "where the faulting lane stopped (the warp recorded no error PC)"));
  const std::size_t cubins = package_cubin_count(c);
  std::string not_package;
  if (module && module->image_crc32 && cubins > 0) {
    not_package = fmt::format(
        "module {} of the dump ({} bytes, CRC-32 {:08x}) is none of the package's {} cubin(s): no "
        "entry has its size and CRC-32",
        module->index, module->image_size, *module->image_crc32, cubins);
    f.evidence.push_back(fact(dump, not_package, "the faulting code is not the package's own"));
  }

  std::string message = fmt::format(
      "The GPU core dump records {} {} in `{}`{}, code the package did not compile{}.",
      warp->exception_name,
      warp->from_sm_table ? fmt::format("on {}", gpu_warp_text(*warp))
                          : fmt::format("by {}", gpu_warp_text(*warp)),
      name, name != at.kernel ? fmt::format(" (symbol `{}`)", at.kernel) : "",
      not_package.empty()
          ? ""
          : fmt::format(" (module {} of the dump is none of its cubins)", module->index));
  const std::size_t after_dump = f.evidence.size();  // the faulting line goes first after these
  if (source.kernel) {
    const SourceCudaKernel& k = *source.kernel;
    const std::string file = source.source->artifact;
    message += fmt::format(
        " `{}` defines the kernel `{}` (line {}, {} parameters, as the symbol "
        "has)",
        file, k.qualified_name, k.line, k.parameters);
    f.evidence.push_back(quote_line(*source.source, k.line, text_at(k, k.line),
                                    fmt::format("the kernel's definition: `{}` with {} parameters, "
                                                "matched to the faulting symbol by name and "
                                                "parameter count",
                                                k.qualified_name, k.parameters)));
    if (impl.impl) {
      message += fmt::format(
          "; `{}` launches it (line {}), and that function is the {} kernel of `{}` (registered at "
          "line {}).",
          impl.launch->function, impl.launch->line, impl.impl->dispatch_key, op,
          impl.impl->registration_line);
      f.evidence.push_back(
          quote_line(*source.source, impl.launch->line, impl.launch->text,
                     fmt::format("`{}` launches the kernel", impl.launch->function)));
      f.evidence.push_back(fact(Location{source.source->artifact, "", impl.impl->registration_line},
                                fmt::format("`{}` is registered as the {} kernel of `{}`",
                                            impl.impl->function, impl.impl->dispatch_key, op),
                                "the op's registration, read from the source"));
      f.chain = {op, fmt::format("{} ({} kernel)", impl.impl->function, impl.impl->dispatch_key),
                 fmt::format("{}<<<...>>>", k.name)};
    } else {
      message += "; no function of the given sources registered for an op launches it.";
    }
    if (mapped.line > 0) {
      const std::string built = std::filesystem::path(at.file).filename().string();
      const bool same = mapped.shift == 0;
      message += fmt::format(
          " The faulting line is line {} of `{}`: `{}`{}.", mapped.line, file,
          quoted_line(text_at(k, mapped.line)),
          same ? fmt::format(" (the line table's {}:{}; the kernel is named on the same line in "
                             "both)",
                             built, at.line)
               : fmt::format(" (inferred: the line table's {}:{} numbers the file as it was built, "
                             "whose kernel is named {} line(s) {}; matched by the kernel's "
                             "position, not by file name)",
                             built, at.line, std::abs(mapped.shift),
                             mapped.shift > 0 ? "earlier" : "later"));
      f.evidence.insert(
          f.evidence.begin() + static_cast<std::ptrdiff_t>(after_dump),
          quote_line(
              *source.source, mapped.line, text_at(k, mapped.line),
              fmt::format("the faulting line: the line table's {}:{}{}", built, at.line,
                          !mapped.anchored
                              ? " (inferred: the table gave no other line of the kernel to "
                                "anchor on; taken at the same number)"
                          : same ? ", the kernel's lowest line in the table being the line of its "
                                   "name here too"
                                 : fmt::format(", moved by {} line(s) to where the kernel is named "
                                               "in this file (inferred)",
                                               mapped.shift))));
      if (!same || !mapped.anchored) f.confidence = std::min(f.confidence, 0.85);
    } else if (at.line > 0) {
      message += fmt::format(
          " The line table's {}:{} is not inside the kernel's body in `{}` once aligned on the "
          "kernel's code: the given file is not the one that was built, and no line is quoted.",
          std::filesystem::path(at.file).filename().string(), at.line, file);
    }
  } else {
    message += fmt::format(
        " Inferred: the package calls {} through the proxy executor and the faulting kernel is "
        "neither the package's nor torch's, so it is one of those ops' own CUDA kernels; the op's "
        ".cu sources were not given, so which op launched it is not known.",
        join(called));
  }
  for (const auto& site : sites) {
    const WrapperFacts& w = *site.model->wrapper;
    f.evidence.push_back(quote_wrapper(
        w, site.call->line,
        fmt::format("the package calls `{}` through the proxy executor{}", site.node->target,
                    site.call->source_nodes.empty()
                        ? ""
                        : fmt::format(" (model code: {})", join(site.call->source_nodes)))));
    if (!op.empty())
      message += fmt::format(
          " The package calls `{}` through the proxy executor at line {} of "
          "its wrapper.",
          op, site.call->line);
  }
  if (!op.empty() && sites.empty())
    message += fmt::format(" No package in the case calls `{}`.", op);
  f.message = std::move(message);
  f.why =
      "A custom op's CUDA kernel runs on whatever AOTI hands it; an index it does not check "
      "against its output's size writes or reads outside the tensor, and the fault ends the "
      "process. After it the CUDA context is unusable, so the host's error names a later call, "
      "not this kernel.";
  const std::string ops = op.empty() ? (called.empty() ? "" : called.front()) : op;
  if (source.kernel)
    f.next_steps.push_back(
        {fmt::format("check that every index `{}` addresses memory with is inside its tensor: "
                     "TORCH_CHECK the index tensor's range in `{}`, or skip out-of-range rows in "
                     "the kernel",
                     source.kernel->name, impl.impl ? impl.impl->function : "its launcher"),
         ""});
  else
    f.next_steps.push_back(
        {"give the analyzer the op's sources (OP_SOURCES: the folder of its .cu "
         "/ .cpp files) to tie the kernel to its op and quote the line",
         reanalyze_command(c, "\"$OP_SOURCES\"")});
  f.next_steps.push_back(opcheck_step(c, ops, "check the op alone at the failing inputs"));
  f.next_steps.push_back(
      rerun_step(c, "run again with the input checks on", "AOTI_RUNTIME_CHECK_INPUTS=1"));
  f.next_steps.push_back(
      {"run the failing program once under `compute-sanitizer --tool memcheck`: "
       "it names the faulting address, block and thread",
       ""});
  return f;
}

// From a log: a crash whose native frames (gdb's backtrace, c10's frames) start in an extension
// library: the innermost frame with a library, among the first few, is not torch's, CUDA's or the
// system's.
std::optional<Finding> log_finding(const Case& c, const LogEvent& e) {
  constexpr std::size_t k_top_frames = 4;
  const LogFrame* crashed = nullptr;
  std::size_t seen = 0;
  for (const auto& frame : e.frames) {
    if (!frame.native) continue;
    if (++seen > k_top_frames) break;
    if (frame.file.find(".so") == std::string::npos) continue;
    if (!is_known_library(frame.file) && frame.function != "<unknown function>") crashed = &frame;
    break;
  }
  if (!crashed) return std::nullopt;
  const std::string library = module_name(crashed->file);
  const bool backtrace_only = e.problem == "backtrace only";
  Finding f = new_finding(CustomopKernelCrashCheck::k_info, Severity::error, 0.6);
  f.explains_failure = true;
  f.subject = "custom op crash " + library;
  f.title = fmt::format("{} inside extension library {}: `{}`",
                        backtrace_only ? "The process stopped" : "Crash", library,
                        cut(util::short_symbol(crashed->function), 120));
  f.message = fmt::format(
      "Line {} of {} {}; its innermost frame with a library is `{}` in {}, a library that is "
      "neither torch, CUDA nor the system: an extension's own code (a custom op's kernel or the "
      "host code around it).",
      e.where.line, e.where.artifact,
      backtrace_only ? "starts a debugger's backtrace (the signal line is not in the log)"
                     : fmt::format("states the crash (`{}`)", e.value),
      cut(crashed->function, 200), crashed->file);
  f.why =
      "A custom op's kernel runs on the inputs it is handed, trusting the shapes and devices its "
      "registration promised; an unchecked index, a size mismatch or a library built against "
      "another compiler or torch crashes the whole process inside it.";
  f.evidence.push_back(
      event_evidence(e, backtrace_only ? "the backtrace's first frame" : "the crash"));
  if (crashed->text != e.text)
    f.evidence.push_back(failures::line_evidence(e, crashed->log_line, crashed->text,
                                                 "the innermost frame with a library: " + library));
  f.next_steps = {{"give the analyzer the library's sources (OP_SOURCES: the folder of its .cpp / "
                   ".cu files) to tie the frame to its op",
                   reanalyze_command(c, "\"$OP_SOURCES\"")},
                  {"let the crash leave a core dump, then give it to aoti-analyze with the model",
                   "ulimit -c unlimited; cat /proc/sys/kernel/core_pattern"}};
  return f;
}

}  // namespace

std::vector<Finding> CustomopKernelCrashCheck::run(const Case& c) const {
  std::vector<Finding> out;
  for (const auto& core : c.gpu_cores)
    if (auto f = gpu_finding(c, core)) out.push_back(std::move(*f));
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
  if (!out.empty()) return out;
  for (const auto& e : c.log_events)
    if (e.kind == LogEventKind::segfault)
      if (auto f = log_finding(c, e)) {
        out.push_back(std::move(*f));
        break;  // one per case: the library is what to look at
      }
  return out;
}

}  // namespace aoti::checks
