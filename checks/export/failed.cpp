// export.failed: torch.export / Dynamo failed to trace the model — from the log's traceback
// (torch._dynamo.exc.Unsupported, UserError, TorchRuntimeError, export's own errors) or from the
// trace's compilation_metrics failure record. Failures another check explains better (a
// data-dependent guard, a specialized dim, a custom op without a fake) are left to it.
#include "checks/export/failed.hpp"

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

// Inductor's failure types, reported by inductor.compile-failed.
bool is_inductor_failure(const TraceFailure& failure) {
  for (std::string_view type :
       {"InductorError", "LoweringException", "MissingOperatorWithoutDecomp",
        "MissingOperatorWithDecomp", "CppCompileError", "CUDACompileError",
        "CppWrapperCodegenError", "CompilationError"})
    if (failure.fail_type == type) return true;
  return failure.fail_type == "BackendCompilerFailed";
}

// The trace records a cause that a shape or custom-op check reports.
bool routed_elsewhere(const TraceFacts& trace, const TraceFailure& failure) {
  if (failure.origin == "inferred") return true;  // shape.dim-specialized's
  // A data-dependent guard or a missing fake (failure.problem) is routed by fl::route_of.
  if (failure.problem == "constraint violation" ||
      failure.fail_type.starts_with("ConstraintViolation"))
    return !trace.specializations.empty();
  return false;
}

std::string why_of(const std::string& type, const LogEvent& e) {
  if (type == "Unsupported")
    return "Dynamo met Python it cannot put in a graph (a graph break); `torch.export` needs one "
           "whole graph, so "
           "it stops. Dynamo's explanation and hints, in its message, say what the construct was.";
  if (type == "UserError")
    return "torch.export refused the model or its arguments as given: the message says which rule "
           "was broken "
           "(dynamic control flow, dynamic shapes that do not match the inputs, unsupported inputs "
           "or outputs).";
  if (type == "TorchRuntimeError") {
    const bool call = e.value.find("Failed running call_") != std::string::npos;
    return call ? "An operation of the model failed on fake tensors while export traced it: the "
                  "shapes, dtypes or "
                  "devices of the example inputs do not fit that operation, or an op (often a "
                  "custom op) has no or a "
                  "wrong meta/fake kernel."
                : "An operation failed while export traced the model with fake tensors.";
  }
  return "Export traces the model once with symbolic inputs; this error stopped that trace, so "
         "there is no "
         "ExportedProgram and nothing to compile.";
}

// Dynamo's `Failed running call_function f(*(args...), **{...}):` wraps the error the call raised,
// printed on the line after the call's arguments end (`):`): its index in e.detail, or -1.
int wrapped_error_line(const LogEvent& e) {
  if (!e.value.starts_with("Failed running call_")) return -1;
  bool call_ended = e.value.ends_with("):");
  for (std::size_t i = 0; i < e.detail.size(); ++i) {
    const auto line = util::trim(e.detail[i]);
    if (call_ended) return line.empty() ? -1 : static_cast<int>(i);
    call_ended = line.ends_with("):");
  }
  return -1;
}

// Dynamo's log of a graph break (`Graph break: from user code at:` and the user's frames): where
// the compiled region was split.
Finding from_graph_break(const Case& c, const std::string& artifact, const LogEvent& e) {
  Finding f = new_finding(ExportFailedCheck::k_info, Severity::warning, 0.6);
  f.explains_failure = true;
  const LogFrame* frame = e.frames.empty() ? nullptr : &e.frames.back();
  f.subject = "graph break";
  f.title = frame ? fmt::format("Dynamo broke the graph at {}:{}{}", frame->file, frame->line,
                                frame->code.empty() ? "" : ": " + code_span(frame->code, 80))
                  : "Dynamo broke the graph (the log does not show where)";
  f.message = fmt::format(
      "Dynamo logged a graph break{}: the compiled region ends there and the rest runs as Python "
      "(torch.compile), or tracing fails (fullgraph=True, torch.export).",
      frame ? fmt::format(" in `{}` at {}:{}", frame->function, frame->file, frame->line) : "");
  // `.item()` / `.tolist()` in the line: a tensor's value read into a Python number.
  const bool scalar_read = frame && (frame->code.find(".item()") != std::string::npos ||
                                     frame->code.find(".tolist()") != std::string::npos);
  f.why = scalar_read
              ? "The line reads a tensor's value into a Python number (`.item()` / `.tolist()`). "
                "Dynamo puts such a read in the graph only when told to capture it "
                "(torch._dynamo.config.capture_scalar_outputs = True, or "
                "TORCHDYNAMO_CAPTURE_SCALAR_OUTPUTS=1); otherwise it breaks the graph there. "
                "Keep the read out of the compiled code, or capture it."
              : "Dynamo met Python it does not put in a graph; the lines before the break (its "
                "reason and hints, when the log shows them) say what it was.";
  f.evidence.push_back(event_evidence(e, "Dynamo's graph-break record"));
  if (frame) {
    f.evidence.push_back(fl::line_evidence(e, frame->log_line, frame->text, "the user code"));
    if (!frame->code.empty()) f.evidence.push_back(fl::code_evidence(e, *frame, "its line"));
  }
  f.next_steps = {{"list every graph break with its reason and user frame",
                   fl::with_env("TORCH_LOGS=\"graph_breaks\"", fl::script_command(c, artifact))}};
  f.chain = {"torch.compile", "graph break",
             frame ? fmt::format("{}:{}", frame->file.substr(frame->file.find_last_of('/') + 1),
                                 frame->line)
                   : "user code"};
  return f;
}

Finding from_log(const Case& c, const std::string& artifact, const LogEvent& e) {
  if (e.problem == "graph break") return from_graph_break(c, artifact, e);
  Finding f = new_finding(ExportFailedCheck::k_info, Severity::error, 0.8);
  f.explains_failure = true;
  const auto types = fl::exception_types(e);
  const std::string type = types.empty() ? e.subject : types.front();
  const LogFrame* frame = fl::user_frame(e);
  // An exception whose type line the log lost (only its message and FX's `While executing` remain).
  const std::string stated = type.empty()
                                 ? first_line(e.value, 300)
                                 : fmt::format("{}: {}", e.subject, first_line(e.value, 300));
  const std::string at_frame = fl::at_frame(frame);
  // Whether the log shows torch.export at work (its frames, its exception classes): otherwise the
  // trace may as well be torch.compile's (Dynamo traces for both), and the finding says only that.
  const bool exporting = fl::raised_in(e, "torch/export/") || fl::raised_in(e, "torch/_export/") ||
                         e.subject.starts_with("torch._export.") ||
                         e.subject.starts_with("torch.export.") || type == "UserError" ||
                         std::any_of(e.frames.begin(), e.frames.end(), [](const LogFrame& frame) {
                           return frame.code.find("torch.export.") != std::string::npos ||
                                  frame.code.find("draft_export(") != std::string::npos;
                         });
  // torch/_export/serde: the program was traced; writing it out (torch.export.save, packaging) is
  // what failed.
  const bool saving = e.raised_in == torch::Subsystem::export_serialize;
  const std::string failed = saving      ? "Saving the exported program failed"
                             : exporting ? "Export failed"
                                         : "Tracing the model failed";
  const std::string tracing =
      saving      ? "Serializing the exported program (torch.export.save, or packaging it)"
      : exporting ? "Tracing the model for export"
                  : "Tracing the model (torch.export or torch.compile)";
  if (fl::is_cut_off(e)) {
    // Only the frames (or the end of Dynamo's message) are in the log: say what they show.
    f.confidence = 0.6;
    f.subject = "export cut-off " + std::string(torch::to_string(e.raised_in));
    f.title = fmt::format("Export or compile failed in {} (the log does not show the exception)",
                          torch::to_string(e.raised_in));
    f.message = fmt::format("Tracing the model stopped in {}{}: {}.", torch::to_string(e.raised_in),
                            at_frame, fl::cut_off_text(e));
  } else {
    f.subject = "export " + (type.empty() ? first_line(e.value, 60) : type);
    f.title = fmt::format("{}: `{}`", failed,
                          type.empty() ? first_line(e.value, 140)
                                       : fmt::format("{}: {}", type, first_line(e.value, 140)));
    f.message = fmt::format("{} stopped with `{}`{}.", tracing, stated, at_frame);
    if (const int wrapped = wrapped_error_line(e); wrapped >= 0) {
      // The call's own error says what failed; the wrapper's line only which call.
      const std::string error(util::trim(e.detail[static_cast<std::size_t>(wrapped)]));
      // `call_function f(...)`, `call_method m(...)`, `call_module mod(...)`: the callee.
      std::string call = first_line(e.value.substr(20), 200);
      call = call.substr(std::min(call.size(), call.find(' ') + 1));
      const std::string callee = call.substr(0, call.find('('));
      f.title = fmt::format("{} running `{}`: `{}`", failed, cut(callee, 80), cut(error, 160));
      f.message = fmt::format("{} ran `{}` on fake tensors and it raised `{}`{}.", tracing,
                              cut(callee, 120), cut(error, 300), at_frame);
    }
  }
  f.why = saving ? "The model was traced; torch.export's serializer met something in the graph "
                   "it cannot write (its message names the node): a gap of this torch version, "
                   "which a newer torch may close."
                 : why_of(type, e);
  f.evidence.push_back(event_evidence(
      e, fl::is_cut_off(e) ? "the last line the log shows of the error"
         : type.empty()    ? "the error's message (the log does not show its exception line)"
         : exporting       ? "the exception that stopped export"
                           : "the exception that stopped the trace"));
  if (const int wrapped = wrapped_error_line(e); wrapped >= 0)
    fl::add_detail_evidence(e, static_cast<std::size_t>(wrapped), 1, "the error the call raised",
                            f.evidence);
  // Dynamo's explanation and hints as it printed them, and FX's node that was running.
  for (std::size_t i = 0; i < e.detail.size() && f.evidence.size() < 6; ++i) {
    const std::string& line = e.detail[i];
    const auto text = line.substr(std::min(line.size(), line.find_first_not_of(' ')));
    if (text.starts_with("Explanation:") || text.starts_with("Hint:") ||
        text.starts_with("Developer debug context:"))
      f.evidence.push_back(fl::line_evidence(e, e.where.line + 1 + static_cast<int>(i), text,
                                             text.starts_with("Hint:") ? "Dynamo's hint"
                                             : text.starts_with("Explanation:")
                                                 ? "Dynamo's explanation"
                                                 : "Dynamo's debug context"));
    if (text.starts_with("While executing %")) {
      f.evidence.push_back(fl::line_evidence(e, e.where.line + 1 + static_cast<int>(i), text,
                                             "the graph node that was running"));
      if (const std::string node = fl::graph_node_target(text); !node.empty())
        f.message += fmt::format(" It happened while running the graph node `{}`.", node);
    }
  }
  // A message that says more on its next lines than Dynamo's labelled ones: its first lines.
  if (f.evidence.size() == 1)
    fl::add_detail_evidence(e, 0, 3, "the exception's message", f.evidence);
  if (const LogEvent* wrapper = fl::wrapping_exception(c, e)) {
    f.message += fmt::format(" It was caught and reported inside `{}`.",
                             cut(wrapper->subject + ": " + first_line(wrapper->value, 200), 240));
    f.evidence.push_back(event_evidence(*wrapper,
                                        "the exception that wraps it (its message holds "
                                        "this traceback)"));
  }
  fl::add_origin_evidence(c, e, f.evidence);
  fl::add_user_frame_evidence(e, f.evidence);
  const std::string script = fl::script_command(c, artifact);
  if (saving) {
    f.next_steps = {{"see the torch version that wrote it; a newer one may serialize this graph",
                     "python -c \"import torch; print(torch.__version__)\""}};
    f.chain = {"torch.export.save", type, "not written"};
    return f;
  }
  f.next_steps.push_back(
      {"see every problem export finds at once, each with its user frame",
       "ep = torch.export.draft_export(model, args, dynamic_shapes=dynamic_shapes)", "python"});
  if (type == "Unsupported")
    f.next_steps.push_back(
        {"or export without Dynamo: non-strict export traces the model as Python runs it",
         "ep = torch.export.export(model, args, dynamic_shapes=dynamic_shapes, strict=False)",
         "python"});
  f.next_steps.push_back({"re-run with Dynamo's full stack trace and the symbolic-shape log",
                          fl::with_env("TORCHDYNAMO_VERBOSE=1 TORCH_LOGS=\"+dynamic\"", script)});
  f.chain = {"torch.export", type.empty() ? std::string(torch::to_string(e.raised_in)) : type,
             frame ? fmt::format("{}:{}", frame->file.substr(frame->file.find_last_of('/') + 1),
                                 frame->line)
                   : "export stopped"};
  return f;
}

Finding from_trace(const TraceFacts& trace, const TraceFailure& failure) {
  Finding f = new_finding(ExportFailedCheck::k_info, Severity::error, 0.8);
  f.explains_failure = true;
  f.subject = "export " + failure.fail_type;
  f.title = fmt::format("Export or compile failed: `{}: {}`", failure.fail_type,
                        first_line(failure.reason, 140));
  // The user frame: the record's own fields, else the `from user code:` frame in its reason.
  const std::string frame = !failure.user_file.empty()
                                ? fmt::format("{}:{}", failure.user_file, failure.user_line)
                                : fl::user_frame_in(failure.reason);
  f.message = fmt::format("The trace records a failed compile ({}{}): `{}: {}`{}.", failure.origin,
                          failure.where.compile_id.empty() ? "" : " " + failure.where.compile_id,
                          failure.fail_type, first_line(failure.reason, 300),
                          frame.empty() ? "" : fmt::format(", at {}", frame));
  f.why = why_of(failure.fail_type, LogEvent{});
  // Facts read from the record (its JSON line is not quoted): no line gutter.
  f.evidence.push_back(fl::trace_failure_evidence(failure));
  if (!failure.user_file.empty())
    f.evidence.push_back(
        fact(Location{failure.where.artifact, "", 0},
             fmt::format("fail_user_frame = {}:{}", failure.user_file, failure.user_line),
             "the user frame the failure record names"));
  else if (!frame.empty())
    f.evidence.push_back(fact(Location{failure.where.artifact, "", 0}, "from user code: " + frame,
                              "the user frame in the record's fail_reason"));
  f.next_steps = {
      {"see every problem export finds at once, each with its user frame",
       "ep = torch.export.draft_export(model, args, dynamic_shapes=dynamic_shapes)", "python"},
      {"read the trace's failure with tlparse",
       fmt::format("tlparse {}", shell_word(trace.artifact))}};
  f.chain = {"torch.export", failure.fail_type, "export stopped"};
  return f;
}
}  // namespace

std::vector<Finding> ExportFailedCheck::run(const Case& c) const {
  std::vector<Finding> out;
  for (const auto& artifact : fl::log_artifacts(c)) {
    const LogEvent* chosen = nullptr;
    for (const LogEvent* e : fl::events_of(c, artifact))
      if (fl::route_of(*e) == fl::Route::export_ && (!chosen || e->final)) chosen = e;
    if (chosen) out.push_back(from_log(c, artifact, *chosen));
  }
  for (const auto& trace : c.traces)
    for (const auto& failure : trace.failures) {
      if (is_inductor_failure(failure) || fl::route_of(failure) != fl::Route::export_ ||
          routed_elsewhere(trace, failure))
        continue;
      // The log of the same run already explains it: the record is one more piece of evidence.
      fl::join_or_add(out, failure, [&] { return from_trace(trace, failure); });
      break;  // the first failure stopped the export; later records repeat it
    }
  return out;
}

}  // namespace aoti::checks
