// shape.data-dependent-guard: a guard on a data-dependent (unbacked) value — export or compile
// needed to know a value that only the data decides.
#include "checks/shape/data_dependent_guard.hpp"

#include <algorithm>
#include <regex>
#include <set>

#include <fmt/format.h>

#include "checks/support/commands.hpp"
#include "checks/support/failures.hpp"
#include "checks/support/finding.hpp"
#include "util/text.hpp"

namespace aoti::checks {
namespace {
using namespace aoti::model;

// Where each unbacked symbol in `names` was made: the trace records `create_unbacked_symbol` with
// the user's frame, the `.item()` or `nonzero()` the value came from.
void add_origins(const TraceFacts& trace, std::set<std::string>& names, Finding& f) {
  for (const auto& symbol : trace.symbols) {
    if (!symbol.unbacked || !names.count(symbol.name) || symbol.user_frames.empty()) continue;
    names.erase(symbol.name);
    const TraceFrame& frame = symbol.user_frames.back();
    f.message += fmt::format(" `{}` is the value of your code at {}:{}: `{}`.", symbol.name,
                             frame.file, frame.line, frame.code);
    f.evidence.push_back(
        fact(Location{symbol.where.artifact, "", symbol.where.line},
             fmt::format("{} = unbacked symbol made at {}:{}: {}", symbol.name, frame.file,
                         frame.line, frame.code),
             "where the data-dependent value comes from (the trace's create_unbacked_symbol)"));
  }
}

// The unbacked symbols a text names (`u0`, `u12`).
std::set<std::string> unbacked_names(const std::string& text) {
  static const std::regex k_unbacked(R"(\bu\d+\b)");
  std::set<std::string> names;
  for (std::sregex_iterator it(text.begin(), text.end(), k_unbacked), end; it != end; ++it)
    names.insert(it->str());
  return names;
}

// The same for the symbols a log's error names, from the traces of the same run.
void add_symbol_origins(const Case& c, const LogEvent& e, Finding& f) {
  std::set<std::string> names = unbacked_names(e.text);
  for (const auto& trace : c.traces)
    if (same_run(e.where.artifact, trace.artifact)) add_origins(trace, names, f);
}

Finding from_trace_failure(const Case& c, const TraceFacts& trace, const TraceFailure& failure) {
  Finding f = new_finding(ShapeDataDependentGuardCheck::k_info, Severity::error,
                          failure.problem_inferred ? 0.55 : 0.8);
  f.explains_failure = true;
  f.subject = "data-dependent trace " + failure.where.compile_id + " " + failure.fail_type;
  const std::string frame = failures::user_frame_in(failure.reason);
  if (failure.problem_inferred) {
    f.title = fmt::format(
        "Tracing failed after it made the data-dependent value `{}` (inferred: a guard on it)",
        failure.symbol);
    f.message = fmt::format(
        "The trace records make_fx failing{} right after the same compile created the unbacked "
        "symbol `{}`; the record gives no reason, and a guard on that value is the likeliest one.",
        failure.where.compile_id.empty() ? "" : " in compile " + failure.where.compile_id,
        failure.symbol);
  } else {
    f.title = "Export or compile stopped at a guard on a data-dependent value";
    f.message = fmt::format("The trace's {} record fails with `{}`{}.", failure.origin,
                            failure.fail_type, frame.empty() ? "" : ", from your code at " + frame);
  }
  f.why = "A branch or check on a data-dependent size cannot be compiled once for every input.";
  f.evidence.push_back(failures::trace_failure_evidence(failure));
  // The reason's own line that states the guard, as a fact of the record.
  for (std::size_t start = 0; start < failure.reason.size();) {
    const auto end = std::min(failure.reason.find('\n', start), failure.reason.size());
    const std::string line = failure.reason.substr(start, end - start);
    if (line.find("data-dependent expression") != std::string::npos) {
      f.evidence.push_back(fact(Location{failure.where.artifact, "", 0},
                                "fail_reason: " + std::string(util::trim(line)),
                                "the line of the record's reason that states the guard"));
      break;
    }
    start = end + 1;
  }
  std::set<std::string> names = unbacked_names(failure.reason);
  if (!failure.symbol.empty()) names.insert(failure.symbol);
  add_origins(trace, names, f);
  f.next_steps = {
      rerun_step(c, "see the guard and its line", "TORCH_LOGS=\"+dynamic\" TORCH_TRACE=/tmp/trace"),
      {"replace the branch by torch._check(...) on the value's range", ""},
      {"read the trace with tlparse", fmt::format("tlparse {}", shell_word(trace.artifact))}};
  return f;
}

}  // namespace

std::vector<Finding> ShapeDataDependentGuardCheck::run(const Case& c) const {
  std::vector<Finding> out;
  for (const auto& trace : c.traces)
    for (const auto& event : trace.data_dependent) {
      // Provenance records explain a real-tensor propagation; only the guard error stops export.
      const bool error = event.kind == "guard_on_data_dependent_error";
      Finding f =
          new_finding(k_info, error ? Severity::error : Severity::warning, error ? 0.85 : 0.6);
      f.explains_failure = error;
      f.subject = "data-dependent " + event.expr;
      const TraceFrame* frame = event.user_frames.empty() ? nullptr : &event.user_frames.back();
      f.title = fmt::format(
          "{} on the data-dependent expression `{}`",
          error ? "Export stopped at a guard" : "A guard was decided from real data", event.expr);
      f.message = fmt::format(
          "Tracing needed the value of `{}`, which depends on tensor data (an unbacked symbol such "
          "as a `.item()` or `nonzero()` size){}.",
          event.expr,
          frame ? fmt::format(", at {}:{}: `{}`", frame->file, frame->line, frame->code) : "");
      f.why =
          "A branch or check on a data-dependent size cannot be compiled once for every input: "
          "export fails, or "
          "the package assumes the value seen while tracing.";
      f.evidence.push_back(Evidence{Location{event.where.artifact, "", event.where.line},
                                    fmt::format("{}: {}", event.kind, event.expr),
                                    "the trace's record"});
      if (frame)
        f.evidence.push_back(
            Evidence{Location{frame->file, "", frame->line}, frame->code, "the user line"});
      f.next_steps = {
          {"tell the compiler what the value can be instead of branching on it (n: the value, x: "
           "the "
           "tensor it counts)",
           "torch._check(n >= 0)\ntorch._check(n <= x.shape[0])", "python"},
          {"or move the data-dependent part out of the exported graph, or use torch.cond", ""}};
      out.push_back(std::move(f));
    }
  for (const auto& e : c.log_events) {
    if (e.problem != "data-dependent guard") continue;
    const bool cut_off = failures::is_cut_off(e);
    Finding f = new_finding(k_info, Severity::error, cut_off ? 0.6 : 0.8);
    f.explains_failure = true;
    f.subject = "data-dependent log " + e.text.substr(0, 80);
    f.title = cut_off ? "Export or compile stopped while evaluating a guard (inferred: on a "
                        "data-dependent value)"
                      : "Export or compile stopped at a guard on a data-dependent value";
    f.message = cut_off ? fmt::format(
                              "{}: {} turns a symbolic value into a Python one there, and a "
                              "guard that fails to evaluate is one on a value only the data "
                              "decides (inferred from the frames; the error itself is not "
                              "in the log).",
                              failures::cut_off_text(e), torch::to_string(e.raised_in))
                        : fmt::format("The log reports `{}`.", e.text.substr(0, 300));
    f.why = "A branch or check on a data-dependent size cannot be compiled once for every input.";
    f.evidence.push_back(
        event_evidence(e, cut_off ? "the innermost frame the log shows" : "the error"));
    // The code that asked for the value: a branch in the user's or a library's code.
    if (const LogFrame* caller = failures::innermost_caller(e);
        caller && caller != failures::user_frame(e)) {
      f.message += fmt::format(" The value was asked for by {}:{}{}.", caller->file, caller->line,
                               caller->code.empty() ? "" : fmt::format(": `{}`", caller->code));
      f.evidence.push_back(failures::line_evidence(e, caller->log_line, caller->text,
                                                   "the frame that asked for the value"));
      if (!caller->code.empty())
        f.evidence.push_back(failures::code_evidence(e, *caller, "its code"));
    }
    // A wrapper's exception (the ONNX exporter's TorchExportError) whose message states the guard
    // further down: that line is the error.
    if (!cut_off && e.text.find("data-dependent") == std::string::npos)
      for (std::size_t i = 0; i < e.detail.size(); ++i)
        if (e.detail[i].find("data-dependent expression") != std::string::npos) {
          const std::string line(util::trim(e.detail[i]));
          f.message += fmt::format(" Its message states `{}`.", cut(line, 300));
          f.evidence.push_back(failures::line_evidence(e, e.where.line + 1 + static_cast<int>(i),
                                                       line,
                                                       "the guard, as the message states it"));
          break;
        }
    // Where the guard was raised, as the message says it (`Caused by:
    // (_export/non_strict_utils.py:683 in __torch_function__)`), at a line's start or after the
    // sentence before it.
    for (std::size_t i = 0; i < e.detail.size(); ++i)
      if (e.detail[i].find("Caused by: ") != std::string::npos) {
        const std::string line(util::trim(e.detail[i]));
        if (!std::any_of(f.evidence.begin(), f.evidence.end(), [&](const Evidence& q) {
              return q.where.line == e.where.line + 1 + static_cast<int>(i);
            }))
          f.evidence.push_back(failures::line_evidence(e, e.where.line + 1 + static_cast<int>(i),
                                                       line, "where the guard was raised"));
        break;
      }
    // The innermost frame the log shows (torch's framework code culprit, or a library's).
    failures::add_origin_evidence(c, e, f.evidence);
    // The user's frame the log names (a traceback's, or draft_export's user stacktrace).
    if (e.user_frame >= 0 && static_cast<std::size_t>(e.user_frame) < e.frames.size()) {
      const auto& frame = e.frames[static_cast<std::size_t>(e.user_frame)];
      f.message += fmt::format(" It was raised from your code at {}:{}{}.", frame.file, frame.line,
                               frame.code.empty() ? "" : fmt::format(": `{}`", frame.code));
      f.evidence.push_back(
          failures::line_evidence(e, frame.log_line, frame.text, "the user frame"));
      if (!frame.code.empty())
        f.evidence.push_back(failures::code_evidence(e, frame, "the user line"));
    }
    add_symbol_origins(c, e, f);
    f.next_steps = {rerun_step(c, "find the line with the trace",
                               "TORCH_LOGS=\"+dynamic\" TORCH_TRACE=/tmp/trace"),
                    {"replace the branch by torch._check(...) on the value's range", ""}};
    out.push_back(std::move(f));
  }
  // A failure record whose reason states a data-dependent guard, when the trace has no guard
  // record of its own (a trace of a torch that logs none, or a make_fx failure after an unbacked
  // symbol was made): evidence for the finding of the same run's log, else a finding of its own.
  for (const auto& trace : c.traces) {
    const bool has_guard_record = std::any_of(
        trace.data_dependent.begin(), trace.data_dependent.end(),
        [](const TraceExprEvent& e) { return e.kind == "guard_on_data_dependent_error"; });
    if (has_guard_record) continue;
    for (const auto& failure : trace.failures) {
      if (failure.problem != "data-dependent guard") continue;
      failures::join_or_add(out, failure, [&] { return from_trace_failure(c, trace, failure); });
      break;  // the first failure stopped the export; later records repeat it
    }
  }
  return out;
}

}  // namespace aoti::checks
