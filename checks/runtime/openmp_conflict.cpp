// runtime.openmp-conflict: a second OpenMP runtime started in a process that already has one.
#include "checks/runtime/openmp_conflict.hpp"

#include <algorithm>
#include <optional>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "checks/support/commands.hpp"
#include "checks/support/failures.hpp"
#include "checks/support/finding.hpp"

namespace aoti::checks {
namespace {
using namespace aoti::model;
namespace fl = failures;

// Where the copies of a runtime library named in the error lie inside the Python environment: the
// wheels that bundle one (torch, a delocated extension, MKL) each keep it under sys.prefix.
std::string find_copies_command(const std::string& library) {
  return fmt::format(
      "python -c \"import glob, sys; print(*glob.glob(sys.prefix + '/**/{}', recursive=True), "
      "sep='\\n')\"",
      library);
}

// Which copies the failing program maps, by the platform the library's name says.
std::string loaded_copies_command(const std::string& library, const std::string& script) {
  if (script.empty()) return "";
  if (library.ends_with(".dylib"))
    return fmt::format("DYLD_PRINT_LIBRARIES=1 {} 2>&1 | grep -i omp", script);
  if (library.find(".so") != std::string::npos)
    return fmt::format("LD_DEBUG=libs {} 2>&1 | grep -i omp", script);
  return "";
}

// The OpenMP runtimes by file name: LLVM's, Intel's and GCC's.
bool is_openmp_runtime(std::string_view path) {
  const auto name = path.substr(
      path.find_last_of('/') == std::string_view::npos ? 0 : path.find_last_of('/') + 1);
  return name.starts_with("libomp.") || name.starts_with("libiomp5") || name.starts_with("libgomp");
}

// A crash inside an OpenMP runtime in a process that a debugger shows holding two or more copies
// of OpenMP runtimes (lldb's `image list`, gdb's `info sharedlibrary`): the runtimes' thread pools
// and state collide without the `OMP: Error #15` check (LLVM's libomp does not run it on every
// path, and a bundled copy may be renamed).
std::optional<Finding> from_crash(const Case& c, const std::string& artifact,
                                  const std::vector<const LogEvent*>& events) {
  const LogEvent* crash = nullptr;
  const LogFrame* frame = nullptr;
  for (const LogEvent* e : events) {
    if (e->kind != LogEventKind::segfault) continue;
    for (const auto& f : e->frames)
      if (f.native) {
        if (is_openmp_runtime(f.file)) crash = e, frame = &f;
        break;  // the innermost frame decides
      }
    if (crash) break;
  }
  if (!crash) return std::nullopt;
  std::vector<const LogEvent*> copies;
  for (const LogEvent* e : events)
    if (e->kind == LogEventKind::loaded_module && is_openmp_runtime(e->subject))
      copies.push_back(e);
  // A list of loaded libraries with one runtime in it says there was no second one.
  const bool listed = std::any_of(events.begin(), events.end(), [](const LogEvent* e) {
    return e->kind == LogEventKind::loaded_module;
  });
  if (listed && copies.size() < 2) return std::nullopt;
  std::vector<std::string> paths;
  for (const LogEvent* e : copies) paths.push_back("`" + e->subject + "`");
  // Without a list of loaded libraries showing two runtimes, the crash site alone suggests it: a
  // runtime's own barrier and thread-pool code rarely faults unless another runtime's threads or
  // state collide with it. Said as inferred, with the command that shows the copies.
  const bool seen = copies.size() >= 2;
  Finding f = new_finding(RuntimeOpenmpConflictCheck::k_info, Severity::error, seen ? 0.8 : 0.55);
  f.explains_failure = true;
  f.subject = "openmp crash " + frame->file;
  f.title = seen ? fmt::format(
                       "The process crashed inside the OpenMP runtime with {} OpenMP runtimes "
                       "loaded",
                       copies.size())
                 : fmt::format("The process crashed inside the OpenMP runtime `{}` (`{}`)",
                               frame->file, cut(frame->function, 80));
  f.message =
      seen ? fmt::format(
                 "Line {} of {} is the crash (`{}`); its innermost frame is `{}` in {}, and the "
                 "debugger's list of loaded libraries holds {} OpenMP runtimes: {}.",
                 crash->where.line, artifact, crash->value, cut(frame->function, 160), frame->file,
                 copies.size(), join(paths))
           : fmt::format(
                 "Line {} of {} is the crash (`{}`); its innermost frame is `{}` in {}, an OpenMP "
                 "runtime. Inferred, not shown by the log: a second OpenMP runtime in the process "
                 "(the log lists no loaded libraries to confirm it).",
                 crash->where.line, artifact, crash->value, cut(frame->function, 160), frame->file);
  f.why =
      "Each library that ships its own OpenMP runtime (a wheel that bundles `libomp` / `libiomp5`, "
      "a package manager's copy, torch's own) brings a thread pool and state of its own; two of "
      "them in one process can crash inside the runtime or compute wrong results.";
  f.evidence.push_back(event_evidence(*crash, "the crash"));
  if (!frame->text.empty())
    f.evidence.push_back(fl::line_evidence(*crash, frame->log_line, frame->text,
                                           "the innermost frame: inside an OpenMP runtime"));
  // The runtime's own frames under it (its barrier, its thread pool's worker): whose code it was.
  for (std::size_t i = static_cast<std::size_t>(frame - crash->frames.data()) + 1, shown = 0;
       i < crash->frames.size() && shown < 3; ++i) {
    const LogFrame& under = crash->frames[i];
    if (!under.native || !is_openmp_runtime(under.file) || under.text.empty()) break;
    f.evidence.push_back(
        fl::line_evidence(*crash, under.log_line, under.text, "a frame of the runtime under it"));
    ++shown;
  }
  for (const LogEvent* e : copies)
    f.evidence.push_back(event_evidence(*e, "an OpenMP runtime loaded"));
  const std::string library = frame->file.substr(frame->file.find_last_of('/') + 1);
  f.next_steps.push_back({fmt::format("find the copies of `{}` in the Python environment", library),
                          find_copies_command(library)});
  if (const auto loaded = loaded_copies_command(library, fl::script_command(c, artifact));
      !loaded.empty())
    f.next_steps.push_back({"see which copies the program loads, and from where", loaded});
  f.next_steps.push_back(
      {"keep one runtime: remove or stop importing the package that bundles another copy, or load "
       "torch first so every library resolves to its runtime",
       ""});
  f.chain = {"OpenMP copies", library, "crash"};
  return f;
}

// mkl-service's refusal: MKL was told to thread with one OpenMP runtime (MKL_THREADING_LAYER=INTEL:
// Intel's libiomp5) while the process already runs another (`libgomp.so.1`, GNU's).
Finding from_threading_layer(const Case& c, const std::string& artifact, const LogEvent& e) {
  Finding f = new_finding(RuntimeOpenmpConflictCheck::k_info, Severity::error, 0.85);
  f.explains_failure = true;
  f.subject = "openmp " + e.subject + " " + e.expected;
  f.title = fmt::format(
      "MKL's threading layer `{}` conflicts with the OpenMP runtime `{}` already "
      "loaded",
      e.subject, e.expected);
  f.message = fmt::format(
      "Line {} of {} is MKL's own check (mkl-service): the threading layer `{}` needs an OpenMP "
      "runtime other than `{}`, which the process had already loaded, so two OpenMP runtimes would "
      "run in one process.",
      e.where.line, artifact, e.subject, e.expected);
  f.why =
      "MKL threads with the OpenMP runtime its threading layer names; a library loaded earlier "
      "(torch's own OpenMP, a compiled extension) brought another. Two runtimes in one process "
      "oversubscribe the cores and can crash or compute wrong results.";
  f.evidence.push_back(event_evidence(e, "MKL's check"));
  const std::string script = fl::script_command(c, artifact);
  // MKL's name for the layer that threads with the runtime already loaded.
  const std::string layer = e.expected.find("gomp") != std::string::npos   ? "GNU"
                            : e.expected.find("iomp") != std::string::npos ? "INTEL"
                                                                           : "";
  if (!script.empty() && !layer.empty() && e.subject != "MKL_THREADING_LAYER=" + layer)
    f.next_steps.push_back({"run with MKL threading on the runtime already loaded",
                            fmt::format("MKL_THREADING_LAYER={} {}", layer, script)});
  f.next_steps.push_back(
      {"or import numpy (MKL) before torch, so that both resolve to one runtime", ""});
  f.chain = {"OpenMP " + e.expected, e.subject, "refused"};
  return f;
}

}  // namespace

std::vector<Finding> RuntimeOpenmpConflictCheck::run(const Case& c) const {
  std::vector<Finding> out;
  for (const auto& artifact : fl::log_artifacts(c)) {
    const auto events = fl::events_of(c, artifact);
    if (auto f = from_crash(c, artifact, events)) out.push_back(std::move(*f));
    for (const LogEvent* e : events) {
      if (e->kind == LogEventKind::runtime_error && e->problem == "threading layer conflict") {
        out.push_back(from_threading_layer(c, artifact, *e));
        continue;
      }
      if (e->kind != LogEventKind::runtime_error || e->problem != "duplicate OpenMP runtime")
        continue;
      const bool same_name = e->subject == e->expected;
      Finding f = new_finding(k_info, Severity::error, 0.9);
      f.explains_failure = true;  // the runtime aborts the process (OMP: Error #15)
      f.subject = "openmp " + e->subject + " " + e->expected;
      f.title =
          same_name
              ? fmt::format("Two copies of the OpenMP runtime `{}` were loaded into one process",
                            e->subject)
              : fmt::format(
                    "Two OpenMP runtimes in one process: `{}` started while `{}` was "
                    "already initialized",
                    e->subject, e->expected);
      f.message = fmt::format(
          "Line {} of {} is the OpenMP runtime's own error #{}: a second copy of the runtime ({}) "
          "initialized in a process where {} already ran. The runtime aborts the process here "
          "unless told not to.",
          e->where.line, artifact, e->source_line, e->subject,
          same_name ? "another copy of the same library" : e->expected);
      f.why =
          "Each library that links OpenMP statically, or ships its own copy of the runtime (a "
          "wheel that bundles `libomp` / `libiomp5`, a model `.so` compiled against another "
          "OpenMP), brings a runtime with its own thread pool and state. Two of them in one "
          "process oversubscribe the cores and can crash or compute wrong results; "
          "`KMP_DUPLICATE_LIB_OK=TRUE` only silences the check.";
      f.evidence.push_back(event_evidence(*e, "the OpenMP runtime's error"));
      const std::string script = fl::script_command(c, artifact);
      f.next_steps.push_back(
          {fmt::format("find the copies of `{}` in the Python environment", e->subject),
           find_copies_command(e->subject)});
      if (const auto loaded = loaded_copies_command(e->subject, script); !loaded.empty())
        f.next_steps.push_back({"see which copies the program loads, and from where", loaded});
      f.next_steps.push_back(
          {"keep one runtime: use the OpenMP torch itself loads (build extensions and AOTI models "
           "against it, not a bundled or static copy), or remove the package that bundles the "
           "other",
           ""});
      f.chain = {"OpenMP " + e->expected, "OpenMP " + e->subject, "abort"};
      out.push_back(std::move(f));
    }
  }
  return out;
}

}  // namespace aoti::checks
