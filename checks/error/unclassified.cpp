// error.unclassified: the last resort. An input that holds an error no other check explains gets
// one finding quoting the error that ended the run and the user's own frame (or the crash's top
// frame), so that no input holding an error ever yields "no findings".
#include "checks/error/unclassified.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "checks/support/commands.hpp"
#include "checks/support/crash.hpp"
#include "checks/support/failures.hpp"
#include "checks/support/finding.hpp"
#include "torch/subsystem.hpp"

namespace aoti::checks {
namespace {
using namespace aoti::model;
namespace fl = failures;

// The error that ended the run: a crash after the last exception, else the last exception, else the
// last terminate, else the last error of any kind.
const LogEvent* ending_error(const std::vector<const LogEvent*>& events) {
  const LogEvent *exception = nullptr, *crash = nullptr, *terminate = nullptr, *last = nullptr;
  for (const LogEvent* e : events) {
    if (!fl::is_error(*e)) continue;
    last = e;
    if (e->kind == LogEventKind::python_exception && e->final) exception = e;
    if (e->kind == LogEventKind::segfault) crash = e;
    if (e->kind == LogEventKind::terminate) terminate = e;
  }
  if (crash && (!exception || crash->where.line > exception->where.line)) return crash;
  if (exception) return exception;
  if (terminate) return terminate;
  return last;
}

Finding report(const Case& c, const std::string& artifact, const LogEvent& e) {
  Finding f = new_finding(ErrorUnclassifiedCheck::k_info, Severity::error, 0.3);
  f.explains_failure = true;
  f.subject = "unclassified " + cut(e.text, 80);
  const LogFrame* user = fl::user_frame(e);
  // Without a frame of the user's own, the innermost one of an installed package (a library's
  // own check that raised).
  const LogFrame* caller = user ? nullptr : fl::innermost_caller(e);
  // The innermost native frame that did the work, not c10's error machinery building the
  // exception (`std::function<...>::operator()`, `c10::Error::Error`, `torchCheckFail`).
  const LogFrame* native = nullptr;
  for (const auto& frame : e.frames) {
    if (!frame.native || frame.function == "<unknown function>") continue;
    const std::string_view function = frame.function;
    if (function.starts_with("std::function<") || function.starts_with("c10::Error::Error") ||
        function.starts_with("c10::detail::torchCheckFail") ||
        function.starts_with("c10::detail::torchInternalAssertFail"))
      continue;
    native = &frame;
    break;
  }
  // The frames under it outside torch, CUDA and the runtimes: the program's or an extension's.
  std::vector<const LogFrame*> program;
  for (const auto& frame : e.frames)
    if (frame.native && program.size() < 2 && !frame.file.empty() && !frame.function.empty() &&
        frame.function != "<unknown function>" && !is_known_library(frame.file) && &frame != native)
      program.push_back(&frame);
  f.title = fl::is_cut_off(e)
                ? fmt::format("The log shows a failure whose exception it does not include{}",
                              e.raised_in == torch::Subsystem::unknown
                                  ? ""
                                  : fmt::format(" (raised in {})", torch::to_string(e.raised_in)))
                : fmt::format("The run failed with an error no check recognises: {}",
                              code_span(e.text, 140));
  f.message = fmt::format(
      "Line {} of {} {}{}{}.", e.where.line, artifact,
      fl::is_cut_off(e) ? "is the last line of a traceback: " + fl::cut_off_text(e)
                        : std::string("states the error that ended the run"),
      user     ? fmt::format("; it was raised from your code at {}:{}{}", user->file, user->line,
                         user->code.empty() ? "" : fmt::format(" (`{}`)", user->code))
          : caller ? fmt::format("; it was raised in `{}` at {}:{}{}", caller->function, caller->file,
                                 caller->line,
                             caller->code.empty() ? "" : fmt::format(" (`{}`)", caller->code))
                   : "",
      native ? fmt::format(
                   "; the innermost native frame is `{}`{}{}", cut(native->function, 200),
                   native->file.empty() ? "" : fmt::format(" in {}", native->file),
                   program.empty()
                       ? ""
                       : fmt::format(", called from {} (outside torch and the system libraries)",
                                     [&] {
                                       std::vector<std::string> names;
                                       for (const LogFrame* p : program)
                                         names.push_back(fmt::format(
                                             "`{}` ({})", cut(p->function, 120), p->file));
                                       return join(names, " and ");
                                     }()))
             : "");
  f.why =
      "No check of this tool explains this error yet, so it is reported as the log states it: the "
      "quoted line "
      "and the frame it names are where to start.";
  // A traceback's code line alone (Python's carets under it): the one line the log kept of it.
  const bool code_only =
      fl::is_cut_off(e) && e.frames.empty() && e.orphan_code_line == e.where.line;
  f.evidence.push_back(event_evidence(
      e, code_only ? "a traceback's code line, with Python's marks under what raised (the log "
                     "shows nothing else of the error)"
                   : "the error that ended the run"));
  if (native && !native->text.empty())
    f.evidence.push_back(
        fl::line_evidence(e, native->log_line, native->text, "the innermost native frame"));
  if (e.orphan_code_line > 0 && !code_only)
    f.evidence.push_back(
        fl::line_evidence(e, e.orphan_code_line, e.orphan_code,
                          "the code line above it (the log lost the `File` line of its frame)"));
  for (const LogFrame* p : program)
    if (!p->text.empty())
      f.evidence.push_back(
          fl::line_evidence(e, p->log_line, p->text, "a frame outside torch and the system"));
  if (caller && !caller->text.empty())
    f.evidence.push_back(
        fl::line_evidence(e, caller->log_line, caller->text, "the frame that raised it"));
  // A wrapper whose line ends where the message starts (`backend='inductor' raised:`).
  if (e.kind == LogEventKind::python_exception && (e.value.empty() || e.value.ends_with(":")))
    fl::add_detail_evidence(e, 0, 1, "the exception's message", f.evidence);
  // Other errors' next lines are their message continued (torch/cuda's supported capabilities
  // under its GPU check, c10's `Exception raised from` location).
  if (e.kind != LogEventKind::python_exception)
    fl::add_detail_evidence(e, 0, 3, "the lines under it", f.evidence);
  fl::add_origin_evidence(c, e, f.evidence);
  fl::add_user_frame_evidence(e, f.evidence);
  const std::string script = fl::script_command(c, artifact);
  if (e.kind == LogEventKind::segfault || e.kind == LogEventKind::terminate) {
    f.next_steps = {{"let the crash leave a core dump, then give it to aoti-analyze with the model",
                     "ulimit -c unlimited; cat /proc/sys/kernel/core_pattern"}};
  } else {
    f.next_steps = {{"re-run with C++ stack traces, so a C++ error shows where it was raised",
                     fl::with_env("TORCH_SHOW_CPP_STACKTRACES=1", script)}};
  }
  f.chain = {
      user ? fmt::format("{}:{}", user->file.substr(user->file.find_last_of('/') + 1), user->line)
           : "run",
      cut(e.subject.empty() ? e.text : e.subject, 60), "failed"};
  return f;
}

Finding from_trace(const TraceFacts& trace, const TraceFailure& failure) {
  Finding f = new_finding(ErrorUnclassifiedCheck::k_info, Severity::error, 0.3);
  f.explains_failure = true;
  f.subject = "unclassified trace " + failure.fail_type;
  f.title = fmt::format("The trace records a failed compile no check recognises: `{}`",
                        failure.fail_type);
  f.message =
      fmt::format("{}: `{}: {}`.", failure.origin, failure.fail_type, cut(failure.reason, 300));
  f.why =
      "No check of this tool explains this failure yet; the record's reason and user frame are "
      "where to start.";
  f.evidence.push_back(fl::trace_failure_evidence(failure));
  f.next_steps = {
      {"read the trace with tlparse", fmt::format("tlparse {}", shell_word(trace.artifact))}};
  return f;
}

}  // namespace

std::vector<Finding> ErrorUnclassifiedCheck::run(const Case& c) const {
  std::vector<Finding> out;
  for (const auto& artifact : fl::log_artifacts(c)) {
    const auto events = fl::events_of(c, artifact);
    if (const LogEvent* failure = ending_error(events))
      out.push_back(report(c, artifact, *failure));
  }
  for (const auto& trace : c.traces)
    if (!trace.failures.empty()) out.push_back(from_trace(trace, trace.failures.front()));
  return out;
}

}  // namespace aoti::checks
