// inductor.compile-failed: Inductor failed to lower or generate code for the exported graph
// (LoweringException, a missing lowering or decomposition, InductorError, a Triton
// CompilationError, an error raised inside torch/_inductor) — from the log's traceback or the
// trace's failure record. A C++ build failure inside Inductor is build.compile-failed's.
#include "checks/inductor/compile_failed.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "checks/support/commands.hpp"
#include "checks/support/failures.hpp"
#include "checks/support/finding.hpp"
#include "util/text.hpp"

namespace aoti::checks {
namespace {
using namespace aoti::model;
namespace fl = failures;

std::string first_line(std::string_view text, std::size_t max = 200) {
  return cut(text.substr(0, text.find('\n')), max);
}

std::string trimmed(const std::string& line) {
  const auto start = line.find_first_not_of(' ');
  return start == std::string::npos ? "" : line.substr(start);
}

// `  target: aten.nonzero.default` in a LoweringException's message: the op being lowered.
std::pair<std::string, int> target_of(const LogEvent& e) {
  for (std::size_t i = 0; i < e.detail.size(); ++i) {
    const std::string line = trimmed(e.detail[i]);
    if (line.starts_with("target: ")) return {line.substr(8), static_cast<int>(i)};
  }
  return {"", -1};
}

Finding from_log(const Case& c, const std::string& artifact, const LogEvent& e) {
  Finding f = new_finding(InductorCompileFailedCheck::k_info, Severity::error, 0.8);
  f.explains_failure = true;
  const auto types = fl::exception_types(e);
  // The innermost named type says what failed; the wrappers (BackendCompilerFailed, InductorError)
  // do not.
  std::string inner = types.empty() ? e.subject : types.back();
  for (const auto& type : types)
    if (type != "BackendCompilerFailed" && type != "InductorError") {
      inner = type;
      break;
    }
  const auto [target, target_index] = target_of(e);
  const std::string message = fl::message_text(e);
  const std::string said = fl::own_message(e);
  // The exception as the log states it: its type and message, or, for a wrapper whose message is
  // the exception it wraps (on the next line), that line alone.
  // A graph-break record (no exception type, the break's type as its message) states the error in
  // its explanation.
  const std::string stated = !e.explanation.empty() && e.subject.empty() ? e.explanation
                             : said == e.value && !e.subject.empty()
                                 ? e.subject + ": " + first_line(e.value, 300)
                                 : first_line(said, 300);
  const bool missing_lowering = message.find("missing lowering") != std::string::npos;
  const bool missing_decomposition = message.find("missing decomposition") != std::string::npos;
  f.subject = "inductor " + (target.empty() ? inner : target);
  if (missing_lowering || missing_decomposition) {
    f.title = fmt::format("Inductor has no {} for `{}`",
                          missing_lowering ? "lowering" : "decomposition registered",
                          target.empty() ? "an op of the model" : target);
    f.message = fmt::format(
        "Compiling the graph stopped at {}: Inductor {}.",
        target.empty() ? "an op" : "`" + target + "`",
        missing_lowering ? "can neither lower it nor fall back to its eager kernel"
                         : "has a decomposition for it that is not in its decomposition table");
    f.why =
        missing_lowering
            ? "Every op in the graph needs a lowering (or a fallback kernel) in Inductor. An op "
              "without one is an "
              "Inductor gap for this torch version: a newer torch may cover it; otherwise "
              "decompose the op in the "
              "model into ones Inductor supports."
            : "Inductor's message names the decomposition to add to torch._inductor.decomposition.";
  } else if (inner == "LoweringException") {
    f.title = fmt::format("Inductor failed to lower `{}`: `{}`", target.empty() ? "an op" : target,
                          first_line(said, 120));
    f.message = fmt::format("Lowering {} to Inductor's IR raised `{}`.",
                            target.empty() ? "an op of the graph" : "`" + target + "`",
                            first_line(said, 300));
    f.why =
        "The op's lowering raised for the arguments this graph gives it (the `args` lines show "
        "their sizes and "
        "dtypes): an Inductor limitation or bug for that case, not an error in the model.";
  } else if (inner == "CompilationError") {
    f.title =
        fmt::format("Triton failed to compile a generated kernel: `{}`", first_line(said, 120));
    f.message =
        fmt::format("A Triton kernel that Inductor generated did not compile: `{}`.", stated);
    f.why =
        "Inductor generated Triton code that this Triton version rejects: a version mismatch "
        "between torch and "
        "Triton, or a code-generation bug for an op of the model.";
  } else if (fl::is_cut_off(e)) {
    // Only the frames are in the log: say what they show.
    f.confidence = 0.6;
    f.title = "Inductor failed to compile the graph (the log does not show the exception)";
    f.message = fmt::format("The compile stopped inside Inductor: {}.", fl::cut_off_text(e));
  } else {
    f.title = fmt::format("Inductor failed to compile the graph: {}",
                          e.subject.empty() ? code_span(stated, 120)
                          : said.starts_with(inner + ": ")
                              ? fmt::format("`{}`", first_line(said, 120))
                              : fmt::format("`{}: {}`", inner, first_line(said, 120)));
    f.message = fmt::format("The compile stopped inside Inductor with {}.", code_span(stated, 300));
    f.why =
        "The error was raised by Inductor itself while it lowered the graph or generated code: an "
        "Inductor "
        "limitation or bug for something in this graph, not an error in the model's code.";
  }
  // An assert without a message: the statement that failed is the raising frame's code line.
  if (std::any_of(types.begin(), types.end(),
                  [](const std::string& t) { return t == "AssertionError"; }) &&
      util::trim(said).ends_with("AssertionError:") && !e.frames.empty() &&
      !e.frames.back().code.empty())
    f.message += fmt::format(" The assertion has no message; the line Python shows for it is `{}`.",
                             e.frames.back().code);
  // Where in Inductor it was raised: the innermost frame under torch/_inductor.
  const LogFrame* inside = nullptr;
  for (const auto& frame : e.frames)
    if (!frame.native && frame.file.find("torch/_inductor/") != std::string::npos) inside = &frame;
  if (inside)
    f.message +=
        fmt::format(" It was raised in Inductor's `{}` ({}:{}).", inside->function,
                    inside->file.substr(inside->file.find("torch/_inductor/")), inside->line);
  // The op lowering it was in, when the exception names no target: torch/_inductor/kernel/ holds
  // one lowering per template op (mm.py's tuned_mm, flex_attention.py's flex_attention).
  const LogFrame* lowering = nullptr;
  if (target.empty())
    for (const auto& frame : e.frames)
      if (!frame.native && frame.file.find("torch/_inductor/kernel/") != std::string::npos) {
        lowering = &frame;
        break;
      }
  if (lowering)
    f.message +=
        fmt::format(" It was lowering `{}` ({}:{}).", lowering->function,
                    lowering->file.substr(lowering->file.find("torch/_inductor/")), lowering->line);
  const bool graph_break = e.subject.empty() && !e.explanation.empty();
  f.evidence.push_back(event_evidence(
      e, fl::is_cut_off(e) ? "the last line the log shows of the error (cut off after it)"
         : graph_break     ? "Dynamo's graph-break record: the break's type"
                           : "the exception that stopped the compile"));
  if (lowering && lowering != inside)
    f.evidence.push_back(
        fl::line_evidence(e, lowering->log_line, lowering->text, "the op lowering it was in"));
  if (inside && inside->log_line != e.where.line)
    f.evidence.push_back(
        fl::line_evidence(e, inside->log_line, inside->text, "the innermost Inductor frame"));
  const auto [node_index, node] = fl::graph_node(e);
  if (graph_break) {
    f.evidence.push_back(fl::line_evidence(
        e, e.explanation_line,
        std::string(
            util::trim(e.detail[static_cast<std::size_t>(e.explanation_line - e.where.line - 1)])),
        "Dynamo's explanation"));
  } else if (target_index >= 0) {
    // The exception a wrapper's line stands for (the title quotes it), on the line under it.
    if (said != e.value && target_index > 0)
      fl::add_detail_evidence(e, 0, 1, "the exception it wraps", f.evidence);
    fl::add_detail_evidence(e, static_cast<std::size_t>(target_index), 1, "the op being lowered",
                            f.evidence);
    // Each argument's layout (`FixedLayout('cuda:0', torch.float32, size=[], stride=[])`): the
    // devices, dtypes and sizes the lowering was given, under its `args[N]:` line.
    std::string argument;
    for (std::size_t i = static_cast<std::size_t>(target_index) + 1;
         i < e.detail.size() && f.evidence.size() < 12; ++i) {
      const std::string line = trimmed(e.detail[i]);
      if (line.starts_with("args[") || line.starts_with("kwargs"))
        argument = line.substr(0, line.find(':'));
      if (line.find("layout=") == std::string::npos || argument.empty()) continue;
      fl::add_detail_evidence(e, i, 1, fmt::format("{}: its layout", argument), f.evidence);
      argument.clear();
    }
  } else
    fl::add_detail_evidence(e, 0, 2, "the exception's message", f.evidence);
  // Triton's CompilationError shows the generated kernel's source up to a caret under the
  // expression it rejected, then the error: the line above the caret and the line after it.
  for (std::size_t i = 1; i < e.detail.size(); ++i) {
    const std::string& line = e.detail[i];
    if (line.find('^') == std::string::npos || line.find_first_not_of(" ^~") != std::string::npos)
      continue;
    f.evidence.push_back(fl::line_evidence(e, e.where.line + static_cast<int>(i),
                                           std::string(util::trim(e.detail[i - 1])),
                                           "the line of the generated kernel Triton rejected"));
    if (i + 1 < e.detail.size() && !util::trim(e.detail[i + 1]).empty())
      f.evidence.push_back(fl::line_evidence(e, e.where.line + 2 + static_cast<int>(i),
                                             std::string(util::trim(e.detail[i + 1])),
                                             "Triton's error"));
    break;
  }
  // `.item()` / `.tolist()` on a tensor of the graph: ATen's _local_scalar_dense reads a value
  // from the device into a Python scalar, which a compiled graph holds only as an unbacked symbol.
  if (node == "item" || node == "tolist" ||
      stated.find("aten._local_scalar_dense") != std::string::npos)
    f.why =
        "The graph reads a tensor's value into a Python number (`.item()`, `.tolist()`: ATen's "
        "`_local_scalar_dense`). Compiled graphs hold such a value only as a data-dependent "
        "symbol, when Dynamo is told to capture it (torch._dynamo.config.capture_scalar_outputs = "
        "True); otherwise keep the read out of the compiled region.";
  if (node_index >= 0 && target_index < 0) {
    if (!node.empty())
      f.message += fmt::format(" It happened while running the graph node `{}`.", node);
    if (graph_break || node_index >= 2)
      fl::add_detail_evidence(e, static_cast<std::size_t>(node_index), 1,
                              "the graph node that was running", f.evidence);
  }
  fl::add_origin_evidence(c, e, f.evidence);
  fl::add_user_frame_evidence(e, f.evidence);
  const std::string script = fl::script_command(c, artifact);
  f.next_steps = {{"re-run with Inductor's debug dump (graphs, IR and generated code, under "
                   "torch_compile_debug/)",
                   fl::with_env("TORCH_COMPILE_DEBUG=1", script)},
                  {"see whether a newer torch compiles it",
                   "python -c \"import torch; print(torch.__version__)\""}};
  f.chain = {target.empty() ? "graph" : target, inner, "compile stopped"};
  return f;
}

Finding from_trace(const TraceFacts& trace, const TraceFailure& failure) {
  Finding f = new_finding(InductorCompileFailedCheck::k_info, Severity::error, 0.75);
  f.explains_failure = true;
  f.subject = "inductor " + failure.fail_type;
  f.title = fmt::format("Inductor failed to compile the graph: `{}: {}`", failure.fail_type,
                        first_line(failure.reason, 120));
  f.message = fmt::format("The trace records a failed compile ({}{}): `{}: {}`.", failure.origin,
                          failure.where.compile_id.empty() ? "" : " " + failure.where.compile_id,
                          failure.fail_type, first_line(failure.reason, 300));
  f.why = "The error was raised while Inductor lowered the graph or generated code.";
  f.evidence.push_back(fl::trace_failure_evidence(failure));
  f.next_steps = {{"read the trace's failure with tlparse",
                   fmt::format("tlparse {}", shell_word(trace.artifact))}};
  f.chain = {"graph", failure.fail_type, "compile stopped"};
  return f;
}

}  // namespace

std::vector<Finding> InductorCompileFailedCheck::run(const Case& c) const {
  std::vector<Finding> out;
  for (const auto& artifact : fl::log_artifacts(c)) {
    const LogEvent* chosen = nullptr;
    const LogEvent* cut = nullptr;  // a later traceback the log cut off (a subprocess's, often)
    bool compiler_output =
        false;  // the compiler's own errors: build.compile-failed explains the failure
    for (const LogEvent* e : fl::events_of(c, artifact)) {
      compiler_output |= e->kind == LogEventKind::compile_error;
      if (fl::route_of(*e) != fl::Route::inductor) continue;
      // An exception the log states whole says more than a traceback cut off after it.
      if (fl::is_cut_off(*e) && chosen && !fl::is_cut_off(*chosen)) {
        cut = e;
        continue;
      }
      if (!chosen || e->final || (fl::is_cut_off(*chosen) && !fl::is_cut_off(*e))) chosen = e;
    }
    if (chosen && !compiler_output) {
      Finding f = from_log(c, artifact, *chosen);
      if (cut && !cut->frames.empty())
        f.evidence.push_back(fl::line_evidence(*cut, cut->frames.back().log_line,
                                               cut->frames.back().text,
                                               "the traceback after it, cut off here"));
      out.push_back(std::move(f));
    }
  }
  for (const auto& trace : c.traces)
    for (const auto& failure : trace.failures) {
      if (fl::route_of(failure) != fl::Route::inductor) continue;
      fl::join_or_add(out, failure, [&] { return from_trace(trace, failure); });
      break;
    }
  return out;
}

}  // namespace aoti::checks
