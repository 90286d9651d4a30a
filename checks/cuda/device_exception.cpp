// cuda.device-exception: a kernel raised an exception on the device, seen in a log: the CUDA
// driver's `Starting GPU coredump generation` (it caught the exception and aborts the process after
// the dump), and the intermediate value printer's last launch with no `after_launch`. With the
// package: the kernel's reads of a table at positions loaded from another tensor, and the printed
// values of that index against the table's rows.
#include "checks/cuda/device_exception.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "checks/support/commands.hpp"
#include "checks/support/contract.hpp"
#include "checks/support/finding.hpp"
#include "checks/support/kernels.hpp"

namespace aoti::checks {
namespace {
using namespace aoti::model;

// The launch the run was inside when it ended: the last launch of the last run, when it never
// returned.
const KernelLaunch* unreturned_launch(const DebugRunFacts& facts) {
  if (facts.runs.empty() || facts.runs.back().launches.empty()) return nullptr;
  const KernelLaunch& last = facts.runs.back().launches.back();
  return last.after_line == 0 ? &last : nullptr;
}

// Mode 1's dumps (one folder, one run, no launch lines): the kernel whose arguments were saved
// before its launch and none after it, when it is the last one saved. nullopt otherwise.
std::optional<KernelLaunch> dumped_unreturned(const DebugRunFacts& facts) {
  if (facts.runs.empty() || !facts.runs.back().launches.empty()) return std::nullopt;
  const auto& values = facts.runs.back().values;
  const auto last = std::find_if(values.rbegin(), values.rend(), [](const PrintedValue& v) {
    return v.phase != PrintPhase::model_inputs;
  });
  if (last == values.rend() || last->phase != PrintPhase::before_launch || !last->header.empty())
    return std::nullopt;
  KernelLaunch launch;
  launch.kernel = last->kernel;
  return launch;
}

// The driver's notice in any log of the same run (folder) as `artifact`.
const DeviceExceptionNotice* notice_of_run(const Case& c, const std::string& artifact) {
  for (const auto& facts : c.debug_runs)
    if (facts.device_exception && same_run(facts.artifact, artifact))
      return &*facts.device_exception;
  return nullptr;
}

// An error a log of the same run states (for dumps, which have no lines of their own).
bool run_failed(const Case& c, const std::string& artifact) {
  return std::any_of(c.log_events.begin(), c.log_events.end(), [&](const LogEvent& e) {
    return same_run(e.where.artifact, artifact) &&
           (e.kind == LogEventKind::cuda_error || e.kind == LogEventKind::segfault ||
            e.kind == LogEventKind::terminate || e.kind == LogEventKind::triton_assert ||
            (e.kind == LogEventKind::python_exception && e.final));
  });
}

// An error the log states after `line` (the failure the unreturned launch led to).
const LogEvent* error_after(const Case& c, const std::string& artifact, int line) {
  for (const auto& e : c.log_events)
    if (e.where.artifact == artifact && e.where.line > line &&
        (e.kind == LogEventKind::cuda_error || e.kind == LogEventKind::segfault ||
         e.kind == LogEventKind::terminate ||
         (e.kind == LogEventKind::python_exception && e.final)))
      return &e;
  return nullptr;
}

// The printed value of `arg` for `kernel` in `run` (before its launch, or as a model input).
const PrintedValue* printed(const PrinterRun& run, const std::string& kernel,
                            const std::string& arg) {
  const PrintedValue* found = nullptr;
  for (const auto& v : run.values)
    if (v.tensor && v.arg == arg &&
        ((v.phase == PrintPhase::before_launch && v.kernel == kernel) ||
         (v.phase == PrintPhase::model_inputs && !found)))
      found = &v;
  return found;
}

// The rows of the tensor a launch binds to `arg`: a constant's first dim, else the printed size.
std::optional<std::int64_t> rows_of(const WrapperFacts& w, const PrinterRun* run,
                                    const std::string& kernel, const std::string& arg) {
  if (const WrapperConstant* k = constant_named(w, arg); k && !k->shape.empty())
    return k->shape.front();
  if (run)
    if (const PrintedValue* v = printed(*run, kernel, arg); v && !v->tensor->size.empty())
      return v->tensor->size.front();
  return std::nullopt;
}

Finding finding_for(const Case& c, const DebugRunFacts& facts, const KernelLaunch* launch,
                    const DeviceExceptionNotice* notice_line) {
  const bool notice = notice_line != nullptr;
  const bool from_dumps = launch && launch->before_line == 0;
  Finding f =
      new_finding(CudaDeviceExceptionCheck::k_info, Severity::error, launch && notice ? 0.8 : 0.65);
  f.explains_failure = true;
  const PrinterRun* run = facts.runs.empty() ? nullptr : &facts.runs.back();
  if (from_dumps) {
    f.subject = "device exception in " + launch->kernel;
    std::size_t saved = 0;
    Location first;
    for (const auto& v : run->values)
      if (v.phase == PrintPhase::before_launch && v.kernel == launch->kernel) {
        if (saved++ == 0) first = v.where;
      }
    f.evidence.push_back(fact(first,
                              fmt::format("the printer saved {} argument(s) of `{}` before its "
                                          "launch and none after it: the last dumps of the run",
                                          saved, launch->kernel),
                              "where the dumps stop"));
  } else if (launch) {
    f.subject = "device exception in " + launch->kernel;
    f.evidence.push_back(
        log_quote({facts.artifact, "", launch->before_line}, launch->before_text,
                  launch->before_text.find(" - ") == std::string::npos
                      ? "the printer's last launch of the run: no `after_launch` follows"
                      : "the printer's first value before the run's last launch: no `after_launch` "
                        "value follows"));
  } else {
    f.subject = "device exception";
  }
  if (notice)
    f.evidence.push_back(log_quote(notice_line->where, notice_line->text,
                                   "the CUDA driver caught an exception on the device"));

  std::string message;
  const std::string driver =
      notice ? fmt::format(
                   "; line {} of {} is the CUDA driver starting a GPU core dump, which it "
                   "does when a kernel raises an exception on the device (an illegal "
                   "address, a trap, an assert), before it aborts the process",
                   notice_line->where.line, notice_line->where.artifact)
             : "";
  if (from_dumps) {
    message = fmt::format(
        "The run stopped inside the launch of `{}`: the printer saved its arguments before the "
        "launch and nothing after it{}.",
        launch->kernel, driver);
  } else if (launch) {
    message = fmt::format(
        "The run stopped inside the launch of `{}`: the printer announced it at line {} and no "
        "`after_launch` followed{}.",
        launch->kernel, launch->before_line, driver);
  }
  if (launch) {
    // The kernels launched before it in this run, in order, each once.
    std::vector<std::string> earlier;
    std::set<std::string> seen;
    const auto add = [&](const std::string& kernel) {
      if (seen.insert(kernel).second) earlier.push_back("`" + kernel + "`");
    };
    for (const auto& l : run->launches)
      if (&l != launch) add(l.kernel);
    if (from_dumps)
      for (const auto& v : run->values)
        if (v.phase == PrintPhase::after_launch) add(v.kernel);
    // A run of hundreds of kernels: the few just before it, and how many came earlier.
    constexpr std::size_t k_named = 5;
    std::string before = join(earlier);
    if (earlier.size() > k_named + 1 || run->launches_not_kept > 0)
      before = fmt::format(
          "{}, and {}",
          join(std::vector<std::string>(
              earlier.end() - static_cast<long>(std::min(k_named, earlier.size())), earlier.end())),
          run->launches_not_kept > 0 ? std::string("earlier ones")
                                     : fmt::format("{} earlier", earlier.size() - k_named));
    message +=
        earlier.empty()
            ? fmt::format(" It is the run's first launch, so `{}` is the kernel that faulted.",
                          launch->kernel)
            : fmt::format(
                  " If the launches were synchronous (CUDA_LAUNCH_BLOCKING=1), `{}` is the "
                  "kernel that faulted; if not, it or one of the kernels launched before it in "
                  "this run ({}).",
                  launch->kernel, before);
  } else {
    message = fmt::format(
        "Line {} is the CUDA driver starting a GPU core dump: a kernel raised an exception on the "
        "device (an illegal address, a trap, an assert), and the driver aborts the process after "
        "the dump. The log does not say which kernel.",
        notice_line->where.line);
  }

  // With the package: what the kernel reads at positions it loads from another tensor.
  const KernelSite site = launch ? kernel_site(c, launch->kernel) : KernelSite{};
  std::string cause_title;
  if (site.kernel && site.call) {
    const WrapperFacts& w = *site.model->wrapper;
    f.evidence.push_back(quote_wrapper(
        w, site.call->line,
        site.call->source_nodes.empty()
            ? "the launch"
            : fmt::format("the launch; model code: {}", join(site.call->source_nodes))));
    const bool unchecked = site.kernel->assert_indirect_indexing == false;
    for (const auto& read : indirect_reads(*site.kernel, *site.call)) {
      const auto rows = rows_of(w, run, launch->kernel, read.table_arg);
      f.evidence.push_back(quote_wrapper(w, read.access->line,
                                         fmt::format("reads `{}` at a position computed from `{}`",
                                                     read.access->pointer, read.index->var)));
      f.evidence.push_back(
          quote_wrapper(w, read.index->line,
                        fmt::format("`{}` is loaded from `{}`, bound to {}", read.index->var,
                                    read.index->pointer, argument_text(w, read.index_arg))));
      message += fmt::format(
          " Inferred from the package: `{}` reads {} at positions loaded from {}{}.",
          launch->kernel, argument_text(w, read.table_arg), argument_text(w, read.index_arg),
          unchecked
              ? ", without a bounds check (its inductor_meta says 'assert_indirect_indexing': "
                "False), so a value outside the table faults instead of asserting"
              : "");
      // The printed values of the index, in this run and in a run before it that returned.
      const PrintedValue* value = run ? printed(*run, launch->kernel, read.index_arg) : nullptr;
      if (value && rows && value->tensor->max &&
          (*value->tensor->max >= static_cast<double>(*rows) ||
           (value->tensor->min && *value->tensor->min < -static_cast<double>(*rows)))) {
        const bool high = *value->tensor->max >= static_cast<double>(*rows);
        const int line = high ? value->tensor->max_line : value->tensor->min_line;
        const std::string& printed_text = high ? value->tensor->max_text : value->tensor->min_text;
        const std::string text =
            !printed_text.empty()
                ? printed_text
                : fmt::format("{:g}", high ? *value->tensor->max : *value->tensor->min);
        if (line == 0)
          f.evidence.push_back(
              fact(value->where,
                   fmt::format("`{}` before the launch: {} {} over its {} elements", read.index_arg,
                               high ? "max" : "min", text, value->tensor->numel.value_or(0)),
                   "the saved argument, read from its bytes"));
        if (line > 0)
          f.evidence.push_back(log_quote(
              {facts.artifact, "", line}, fmt::format("{} value: {}", high ? "Max" : "Min", text),
              fmt::format("`{}` as printed in the failing run (its block begins at line {})",
                          read.index_arg, value->where.line)));
        message += fmt::format(
            " The printer shows `{}` in the failing run with {} value {}, while `{}` has {} rows: "
            "that input addresses memory outside the table.",
            read.index_arg, high ? "Max" : "Min", text, read.table_arg, *rows);
        for (auto r = facts.runs.rbegin() + 1; r < facts.runs.rend(); ++r) {
          const PrintedValue* clean = printed(*r, launch->kernel, read.index_arg);
          if (clean && clean->tensor->max && !clean->tensor->max_text.empty()) {
            message += fmt::format(" In the run before, which returned, its Max value was {}.",
                                   clean->tensor->max_text);
            break;
          }
        }
        cause_title = fmt::format("; `{}` holds {} against {} rows of `{}`", read.index_arg, text,
                                  *rows, read.table_arg);
      }
      if (unchecked && site.kernel->inductor_meta_line > 0)
        f.evidence.push_back(quote_wrapper(w, site.kernel->inductor_meta_line,
                                           "the kernel has no device assert on its indirect "
                                           "indices"));
      break;  // the first table read is the one the prose names; the others are alike
    }
  }

  f.title = launch ? fmt::format("The device faulted in `{}`: its launch never returned{}{}",
                                 launch->kernel, notice ? " and the driver dumped the GPU" : "",
                                 cause_title)
                   : "A kernel raised an exception on the device (the driver dumped the GPU)";
  f.message = message;
  f.why =
      "A device exception kills the CUDA context: every later call fails, and the host's error, "
      "when it prints one, names a later call. The last launch that never returned and the GPU "
      "core name the kernel itself.";

  // Next: the GPU core the driver wrote, the kernel's inputs, the asserts on.
  if (notice) {
    const std::string& core = notice_line->core_file;
    f.next_steps.push_back(
        {core.empty() ? "analyze again with the GPU core the driver wrote (its default name, "
                        "core_<time>_<host>_<pid>.nvcudmp in the process's working directory, "
                        "unless CUDA_COREDUMP_FILE named another); the dump names the faulting "
                        "kernel, line and thread"
                      : "analyze again with the GPU core the driver wrote",
         reanalyze_command(c, core.empty() ? "core_*.nvcudmp" : shell_quote(core))});
  }
  if (launch && run && !from_dumps &&
      std::none_of(run->values.begin(), run->values.end(),
                   [&](const PrintedValue& v) { return v.kernel == launch->kernel; }))
    f.next_steps.push_back(
        repackage_step(c, "re-package printing this kernel's inputs, then run the same input again",
                       fmt::format("AOT_INDUCTOR_FILTERED_KERNELS_TO_PRINT=\"{}\" "
                                   "AOT_INDUCTOR_DEBUG_INTERMEDIATE_VALUE_PRINTER=2",
                                   launch->kernel)));
  f.next_steps.push_back(
      rerun_step(c, "run again with the input checks on", "AOTI_RUNTIME_CHECK_INPUTS=1"));
  if (site.kernel && site.kernel->assert_indirect_indexing == false)
    f.next_steps.push_back(
        {"re-package with the index asserts on, so a bad index fails with its value range",
         "torch._inductor.aoti_compile_and_package(ep, "
         "inductor_configs={\"assert_indirect_indexing\": True})  # ep: your exported program",
         "python"});
  return f;
}

}  // namespace

std::vector<Finding> CudaDeviceExceptionCheck::run(const Case& c) const {
  std::vector<Finding> out;
  // A GPU core names the kernel itself: cuda.illegal-memory-access and customop.kernel-crash read
  // it, and this finding would say less.
  if (std::any_of(c.gpu_cores.begin(), c.gpu_cores.end(),
                  [](const GpuCoreFacts& core) { return !core.faulting_warps.empty(); }))
    return out;
  // Mode 1's dumps: the last kernel saved before its launch and never after, in a run whose logs
  // say it failed.
  std::vector<std::string> dumped_runs;
  for (const auto& facts : c.debug_runs)
    if (const auto dumped = dumped_unreturned(facts)) {
      const DeviceExceptionNotice* notice = notice_of_run(c, facts.artifact);
      if (!notice && !run_failed(c, facts.artifact)) continue;
      out.push_back(finding_for(c, facts, &*dumped, notice));
      dumped_runs.push_back(facts.artifact);
    }
  for (const auto& facts : c.debug_runs) {
    if (dumped_unreturned(facts)) continue;
    const KernelLaunch* launch = unreturned_launch(facts);
    // A launch that never returned is a failure only when the log says one followed; a log may
    // simply end there.
    if (launch && !facts.device_exception && !error_after(c, facts.artifact, launch->before_line))
      launch = nullptr;
    if (!launch && !facts.device_exception) continue;
    // The notice of a run whose dumps named the kernel already.
    if (!launch && std::any_of(dumped_runs.begin(), dumped_runs.end(),
                               [&](const std::string& d) { return same_run(d, facts.artifact); }))
      continue;
    // The notice alone, in a log that states the device's error itself (a device assert's
    // message, a CUDA error): the checks of that error report it; this would only repeat it.
    if (!launch && std::any_of(c.log_events.begin(), c.log_events.end(), [&](const LogEvent& e) {
          return e.where.artifact == facts.artifact &&
                 (e.kind == LogEventKind::triton_assert || e.kind == LogEventKind::cuda_error);
        }))
      continue;
    out.push_back(
        finding_for(c, facts, launch, facts.device_exception ? &*facts.device_exception : nullptr));
  }
  return out;
}

}  // namespace aoti::checks
