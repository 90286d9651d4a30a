// cuda.illegal-memory-access: a CUDA illegal memory access. With a GPU core dump, the evidence of
// the dump itself (the kernel, its source line, the access and the tensors behind it, the thread
// and block); from logs alone, the triage: the kernels that could have done it and the next
// commands.
#include "checks/cuda/illegal_memory_access.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "checks/support/commands.hpp"
#include "checks/support/contract.hpp"
#include "checks/support/crash.hpp"
#include "checks/support/failures.hpp"
#include "checks/support/finding.hpp"
#include "checks/support/kernels.hpp"
#include "model/describe.hpp"
#include "torch/error_messages.hpp"
#include "torch/subsystem.hpp"

namespace aoti::checks {
namespace {
using namespace aoti::model;

bool is_illegal_access(const LogEvent& e) {
  return e.kind == LogEventKind::cuda_error &&
         (torch::is_illegal_memory_access(e.value) ||
          e.text.find("illegal memory access") != std::string::npos);
}

// The GPU core side of the check: the faulting warp of a GPU core dump, its kernel and source line
// symbolized by the parser, matched to the kernel's source in a package's wrapper, the access on
// that line and the tensors behind it.

// CUDBGException_t codes of a misaligned access (warp and, before CUDA 13.1, lane).
constexpr std::uint32_t k_misaligned_address = 6;
constexpr std::uint32_t k_lane_misaligned_address = 11;

bool is_memory_exception(std::uint32_t code) {
  // Lane/Device/Warp Illegal Address, Out-of-range, Misaligned, Invalid Address Space, MMU fault.
  switch (code) {
    case 1:
    case 5:
    case 6:
    case 7:
    case 10:
    case 11:
    case 14:
    case 17:
    case 30:
      return true;
    default:
      return false;
  }
}

Finding gpu_core_finding(const Case& c, const GpuCoreFacts& core, const GpuWarp& warp,
                         std::size_t faulting_warps) {
  Finding f = new_finding(CudaIllegalMemoryAccessCheck::k_info, Severity::error, 0.9);
  f.explains_failure = true;
  const GpuCodeLocation& at = warp.error ? *warp.error : *warp.stop;
  const Location dump{core.artifact, "", 0};
  const std::string kernel =
      at.kernel.empty() ? "an unknown kernel" : "`" + gpu_kernel_name(at) + "`";
  f.subject = fmt::format("gpu fault {} line {}", at.kernel, at.line);

  // Where: the warp, as cuda-gdb would print it.
  const std::string who = gpu_warp_text(warp);
  const std::string where =
      fmt::format("{} at PC {:#x} in {}", warp.exception_name, at.pc, gpu_location_text(at));
  f.evidence.push_back(fact(dump, fmt::format("{}; {}", where, who),
                            warp.error ? "the warp's error PC, symbolized through the cubin in "
                                         "the dump (its symbol table and line table)"
                                       : "where the faulting lane stopped (the warp recorded no "
                                         "error PC)"));

  // The cubin: the package's own, matched by CRC-32.
  const GpuModule* module = at.module ? &core.modules[*at.module] : nullptr;
  if (const PackageEntry* entry = module ? package_cubin(c, *module) : nullptr)
    f.evidence.push_back(fact(dump,
                              fmt::format("module {} of the dump is the package's `{}` (same size "
                                          "and CRC-32)",
                                          module->index, entry->name),
                              "the faulting code is this package's"));

  // The line, in the kernel source the wrapper embeds.
  const KernelSite site = at.kernel.empty() ? KernelSite{} : kernel_site(c, at.kernel);
  std::string access_sentence, index_sentence, assert_sentence;
  if (site.kernel && at.line > 0) {
    const WrapperFacts& w = *site.model->wrapper;
    const TritonKernel& k = *site.kernel;
    // A Triton kernel's .py is the text between `'''` and `'''` in the wrapper: its line 1 is the
    // rest of the opening line.
    const int line = k.source_begin + at.line - 1;
    if (k.language == KernelLanguage::triton && line > k.line && line <= k.source_end) {
      const auto access = std::find_if(k.loads.begin(), k.loads.end(),
                                       [&](const TritonLoad& l) { return l.line == line; });
      f.evidence.push_back(quote_wrapper(
          w, line,
          fmt::format("line {} of the kernel's source, as the package's wrapper embeds it: the "
                      "faulting line",
                      at.line)));
      if (access != k.loads.end()) {
        // The pointer is a kernel parameter, or a local computed from one (a user kernel's
        // `src = (buf_ptr + start).to(...)`): the parameter is what the launch binds.
        std::string base = access->pointer;
        const auto local = k.assignments.find(scoped_name(base, access->scope));
        if (std::find(k.params.begin(), k.params.end(), base) == k.params.end() &&
            local != k.assignments.end())
          for (const auto& name : identifiers_in(local->second))
            if (std::find(k.params.begin(), k.params.end(), name) != k.params.end()) {
              base = name;
              break;
            }
        const std::string arg = site.call ? argument_for(k, *site.call, base) : "";
        access_sentence = fmt::format(
            " That line {} `{}`{}{}.", access->is_store ? "stores through" : "loads from",
            access->pointer,
            base == access->pointer ? "" : fmt::format(", computed from `{}`", base),
            arg.empty() ? ""
                        : fmt::format(", which the launch binds to {}", argument_text(w, arg)));
        f.chain.push_back(fmt::format("{} in {}", access->is_store ? "store" : "load", k.name));
        if (!arg.empty()) f.chain.push_back(fmt::format("{} = {}", base, arg));
        // Where the address comes from: the loads its offset is computed from, else those the
        // local pointer is.
        std::string part = "offset";
        std::vector<const TritonLoad*> sources;
        for (const std::string& expression :
             {access->offset, base == access->pointer ? std::string() : local->second}) {
          for (const auto& name : identifiers_in(expression))
            for (const TritonLoad* load : index_sources(k, name, access->scope))
              if (std::find(sources.begin(), sources.end(), load) == sources.end())
                sources.push_back(load);
          if (!sources.empty()) break;
          part = "address";
        }
        for (const TritonLoad* load : sources) {
          const std::string from = site.call ? argument_for(k, *site.call, load->pointer) : "";
          f.evidence.push_back(quote_wrapper(
              w, load->line,
              fmt::format("the {}'s `{}` is loaded from `{}`{}", part, load->var, load->pointer,
                          from.empty() ? "" : ", bound to " + argument_text(w, from))));
          if (!from.empty() && index_sentence.empty())
            index_sentence = fmt::format(" Its {} `{}` is computed from `{}`, loaded from {}.",
                                         part, part == "offset" ? access->offset : local->second,
                                         load->var, argument_text(w, from));
          if (!from.empty()) f.chain.insert(f.chain.begin(), argument_text(w, from));
        }
      }
      if (k.assert_indirect_indexing == false && k.inductor_meta_line > 0) {
        f.evidence.push_back(quote_wrapper(
            w, k.inductor_meta_line,
            "inductor_meta says 'assert_indirect_indexing': False: the kernel has no device "
            "assert on its indirect indices"));
        assert_sentence =
            " No device-side assert fired because the kernel was compiled with "
            "`assert_indirect_indexing` off (its inductor_meta says False): an index out of "
            "range faults on the access instead of asserting.";
      }
    }
    if (site.call)
      f.evidence.push_back(quote_wrapper(
          w, site.call->line,
          site.call->source_nodes.empty()
              ? "the launch"
              : fmt::format("the launch; model code: {}", join(site.call->source_nodes))));
  }

  // The intermediate value printer's log of the same run: its last launch, never returned, is the
  // kernel the dump names.
  for (const auto& facts : c.debug_runs) {
    if (facts.runs.empty() || facts.runs.back().launches.empty() ||
        !same_run(facts.artifact, core.artifact))
      continue;
    const KernelLaunch& last = facts.runs.back().launches.back();
    if (last.after_line == 0 && last.kernel == at.kernel && last.before_line > 0)
      f.evidence.push_back(log_quote({facts.artifact, "", last.before_line}, last.before_text,
                                     "the printer's last launch of the failing run, which never "
                                     "returned: the same kernel"));
  }

  // The CPU core of the same process: the thread that launched the grid is one of its threads.
  for (const auto& cpu : c.cores) {
    std::uint32_t launcher = 0;
    for (const auto& g : core.grids)
      if (g.device == warp.device && g.id == warp.grid) launcher = g.host_tid;
    const auto thread = std::find_if(
        cpu.threads.begin(), cpu.threads.end(),
        [&](const CoreThread& t) { return launcher != 0 && t.tid == static_cast<int>(launcher); });
    if (thread == cpu.threads.end()) continue;
    f.evidence.push_back(
        fact(core_location(cpu),
             fmt::format("thread {} of pid {} launched grid {} (the grid table's host thread); the "
                         "process ended with {}{}",
                         launcher, cpu.pid, warp.grid,
                         cpu.signal_name.empty() ? "no signal" : cpu.signal_name,
                         cpu.signal_code_name.empty() ? "" : " (" + cpu.signal_code_name + ")"),
             "the CPU core is of the same process"));
    break;
  }

  f.title = fmt::format("{} in {}{} (from the GPU core dump)", warp.exception_name, kernel,
                        at.line > 0 ? fmt::format(" at line {}", at.line) : "");
  // A warp stopped; an SM's row only records what one of its exited warps hit.
  const std::string what = warp.from_sm_table
                               ? fmt::format("records {} on {}", warp.exception_name, who)
                               : fmt::format("shows {} stopped with {}", who, warp.exception_name);
  f.message = fmt::format("The GPU core dump {} in {}{}.{}{}{}", what, kernel,
                          at.line > 0 ? fmt::format(", line {} of its source", at.line) : "",
                          access_sentence, index_sentence, assert_sentence);
  if (faulting_warps > 1)
    f.message += fmt::format(" {} warps faulted in all; this is the first.", faulting_warps);
  if (!index_sentence.empty())
    f.message += fmt::format(
        " Inferred: the values of that input {} (the dump does not record the faulting address).",
        warp.exception == k_misaligned_address || warp.exception == k_lane_misaligned_address
            ? "made the address misaligned for the access"
            : "addressed memory outside the tensor");
  f.why =
      "After a memory fault in a kernel the CUDA context is unusable and every later call fails; "
      "the error "
      "reaches the host asynchronously, so the failing call in a log is not the kernel that did "
      "it. The dump names the kernel itself.";

  // Next: read the kernel, check the input, confirm with the input checks on.
  if (site.kernel) {
    const WrapperFacts& w = *site.model->wrapper;
    f.next_steps.push_back(
        {"read the kernel",
         show_wrapper_lines_command(w, site.kernel->source_begin, site.kernel->source_end)});
  }
  f.next_steps.push_back(
      rerun_step(c, "run again with the input checks on", "AOTI_RUNTIME_CHECK_INPUTS=1"));
  if (site.kernel)
    f.next_steps.push_back(
        repackage_step(c, "re-package printing this kernel's inputs, then run again",
                       fmt::format("AOT_INDUCTOR_FILTERED_KERNELS_TO_PRINT=\"{}\" "
                                   "AOT_INDUCTOR_DEBUG_INTERMEDIATE_VALUE_PRINTER=2",
                                   site.kernel->launch_name.empty() ? site.kernel->name
                                                                    : site.kernel->launch_name)));
  if (site.kernel && site.kernel->assert_indirect_indexing == false)
    f.next_steps.push_back(
        {"re-package with the index asserts on, so a bad index fails with its value range",
         "torch._inductor.aoti_compile_and_package(ep, "
         "inductor_configs={\"assert_indirect_indexing\": "
         "True})  # ep: your exported program",
         "python"});
  return f;
}

}  // namespace

std::vector<Finding> CudaIllegalMemoryAccessCheck::run(const Case& c) const {
  std::vector<Finding> out;
  // A GPU core names the kernel: one finding per dump, from its first faulting warp.
  for (const auto& core : c.gpu_cores) {
    const auto warp = std::find_if(
        core.faulting_warps.begin(), core.faulting_warps.end(),
        [](const GpuWarp& w) { return is_memory_exception(w.exception) && (w.error || w.stop); });
    if (warp == core.faulting_warps.end()) continue;
    Finding f = gpu_core_finding(c, core, *warp, core.faulting_warps.size());
    for (const auto& e : c.log_events)
      if (is_illegal_access(e)) {
        f.evidence.push_back(event_evidence(e, "the CUDA error the host saw"));
        break;
      }
    out.push_back(std::move(f));
  }
  if (!out.empty()) return out;
  std::set<std::string> reported;  // one finding per log: its first report of the fault
  for (const auto& e : c.log_events) {
    if (!is_illegal_access(e) || !reported.insert(e.where.artifact).second) continue;
    Finding f = new_finding(k_info, Severity::error, 0.7);
    f.explains_failure = true;
    f.subject = "illegal memory access";
    f.title = "A kernel accessed memory outside its tensors (CUDA illegal memory access)";
    f.message =
        "CUDA reported an illegal memory access. Errors are reported asynchronously, so the call "
        "that "
        "raised it is not necessarily the kernel that did it.";
    f.why =
        "After an IMA the CUDA context is unusable; the cause is usually an input outside the "
        "compiled "
        "contract (a dynamic size the kernels do not handle, an empty tensor) or a custom op whose "
        "fake "
        "kernel lied about its output shape.";
    f.evidence.push_back(event_evidence(e, "the CUDA error"));
    // The same fault reported again further on (a library's own check first, then torch's
    // exception, or the reverse), and the user's line the exception came out of.
    std::set<int> fault_lines = {e.where.line};
    for (const auto& other : c.log_events) {
      if (&other == &e || other.where.artifact != e.where.artifact || !is_illegal_access(other))
        continue;
      f.evidence.push_back(event_evidence(other, "the same fault, reported again"));
      fault_lines.insert(other.where.line);
    }
    for (const auto& other : c.log_events)
      if (other.kind == LogEventKind::python_exception &&
          other.where.artifact == e.where.artifact && fault_lines.count(other.where.line)) {
        // The line of Inductor's generated code the error came out of: where the host noticed
        // (the next allocation or synchronization), after the kernels launched above it.
        for (auto frame = other.frames.rbegin(); frame != other.frames.rend(); ++frame) {
          if (frame->native || !torch::is_generated_file(frame->file)) continue;
          f.message += fmt::format(
              " The host noticed it in the code Inductor generated (`{}`, line {} of {}); the "
              "kernels that compiled code launched before that line are the suspects.",
              frame->function, frame->line, module_name(frame->file));
          f.evidence.push_back(failures::line_evidence(
              other, frame->log_line, frame->text, "the generated code's frame it surfaced in"));
          if (!frame->code.empty())
            f.evidence.push_back(failures::code_evidence(
                other, *frame, "its line: where the host noticed, after the kernels above it"));
          break;
        }
        failures::add_user_frame_evidence(other, f.evidence);
        break;
      }
    // The native frames under the error that are an extension library's own (k2's check that
    // printed it, and its callers): where the host noticed, and whose kernels ran last.
    if (const auto frames = failures::library_frames(e, 3); !frames.empty()) {
      std::vector<std::string> names;
      for (const LogFrame* frame : frames) names.push_back(code_span(frame->function));
      const std::string library = module_name(frames.front()->file);
      f.message += fmt::format(
          " The native frames under it show where the host noticed it: {} in {}, a library that "
          "is not torch's or CUDA's, so its own kernels are suspects too.",
          join(names, " called from "), library);
      for (const LogFrame* frame : frames)
        f.evidence.push_back(failures::line_evidence(
            e, frame->log_line, frame->text,
            fmt::format("a native frame under the error, in {}", module_name(frame->file))));
    }
    // The error whose message it continues (`RuntimeError: .../multi_tensor_apply.cuh:92 in
    // function multi_tensor_apply:` on the line above): the call that reported it.
    for (const auto& other : c.log_events)
      if (&other != &e && other.where.artifact == e.where.artifact &&
          other.where.line == e.where.line - 1 && other.kind == LogEventKind::python_exception) {
        f.evidence.push_back(event_evidence(
            other,
            "the error that reported it: where the host noticed, not necessarily the "
            "kernel that did it"));
        break;
      }
    // In a test run, the test that failed is where to reproduce it.
    for (const auto& other : c.log_events)
      if (other.kind == LogEventKind::test_failure && other.where.artifact == e.where.artifact) {
        f.message += fmt::format(" The test that failed is `{}`.", other.subject);
        f.evidence.push_back(event_evidence(other, "the test that failed"));
        break;
      }
    std::vector<std::string> kernels;
    if (const ModelFacts* model = model_of(c, e); model && model->wrapper) {
      for (const auto& call : model->wrapper->kernel_calls) kernels.push_back(call.kernel);
      if (!kernels.empty())
        f.evidence.push_back(Evidence{model->wrapper->where, join(kernels),
                                      "the kernels the model launches, in order: the suspects"});
    }
    f.next_steps = {rerun_step(c, "validate every input against the compiled guards",
                               "AOTI_RUNTIME_CHECK_INPUTS=1"),
                    rerun_step(c, "make the failure reproducible and synchronous",
                               "PYTORCH_NO_CUDA_MEMORY_CACHING=1 CUDA_LAUNCH_BLOCKING=1"),
                    repackage_step(c,
                                   "re-package printing each kernel as it launches; the last one "
                                   "printed before the error is the suspect",
                                   "AOT_INDUCTOR_DEBUG_INTERMEDIATE_VALUE_PRINTER=3")};
    if (!kernels.empty())
      f.next_steps.push_back(
          repackage_step(c, "then re-package printing one suspect kernel's inputs",
                         fmt::format("AOT_INDUCTOR_FILTERED_KERNELS_TO_PRINT=\"{}\" "
                                     "AOT_INDUCTOR_DEBUG_INTERMEDIATE_VALUE_PRINTER=2",
                                     kernels.back())));
    out.push_back(std::move(f));
    break;  // one triage per case: the advice does not change with the count
  }
  return out;
}

}  // namespace aoti::checks
