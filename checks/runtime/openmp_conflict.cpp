// runtime.openmp-conflict: a second OpenMP runtime started in a process that already has one.
#include "checks/runtime/openmp_conflict.hpp"

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

}  // namespace

std::vector<Finding> RuntimeOpenmpConflictCheck::run(const Case& c) const {
  std::vector<Finding> out;
  for (const auto& artifact : fl::log_artifacts(c))
    for (const LogEvent* e : fl::events_of(c, artifact)) {
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
  return out;
}

}  // namespace aoti::checks
