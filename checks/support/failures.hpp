// What the failure checks share (build.compile-failed, load.library-failed, export.failed,
// inductor.compile-failed, runtime.runner-error, error.unclassified): which log events state an
// error, how a Python exception chain is read, which check a failure belongs to, and evidence for
// the exception's own lines and the user's frame.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/case.hpp"
#include "model/finding.hpp"

namespace aoti::checks::failures {

// The exception types of a Python exception, outermost first: its own type, then the ones its
// message names (`InductorError: LoweringException: NotImplementedError: ...`,
// BackendCompilerFailed's `backend='inductor' raised:` / `LoweringException: ...`). Last components
// only: "InductorError".
std::vector<std::string> exception_types(const model::LogEvent& e);
bool names_type(const model::LogEvent& e, std::string_view type);
// Whether a frame of the exception's traceback is in a file whose path holds `part`
// ("torch/_inductor/").
bool raised_in(const model::LogEvent& e, std::string_view part);
// The message and its further lines, for searching.
std::string message_text(const model::LogEvent& e);
// The exception's own message line: for Dynamo's BackendCompilerFailed, whose line ends where its
// message starts (`backend='inductor' raised:`), the exception it wraps, on the next line
// (`LoweringException: AttributeError: ...`); else the exception line's message.
std::string own_message(const model::LogEvent& e);

// Which failure check a Python exception belongs to (each check takes only its own; the routes to
// the shape and custom-op checks are marked on the event by the log reader).
enum class Route { none, build, load, export_, inductor, runner, routed_elsewhere };
Route route_of(const model::LogEvent& e);

// ATen's own shape-check messages (`mat1 and mat2 shapes cannot be multiplied (3x1 and 2x1)`, `The
// size of tensor a (3) must match the size of tensor b (2) ...`, `shape '[2, 3]' is invalid for
// input of size 4`): an op rejected the sizes it was given.
bool is_shape_error(std::string_view text);

// Which failure check a trace's failure record belongs to, by its fail_type and the exception types
// its fail_reason starts with (`InductorError` / `InvalidCxxCompiler: ...` is the build's).
Route route_of(const model::TraceFailure& failure);
// A trace failure as a fact (its JSON record is not quoted), for the finding that explains it.
model::Evidence trace_failure_evidence(const model::TraceFailure& failure);
// A trace's record of a failure joins the finding of the same run already made from its log, as
// evidence; without one, `own()` makes the finding of its own.
template <class MakeFinding>
void join_or_add(std::vector<model::Finding>& out, const model::TraceFailure& failure,
                 MakeFinding own) {
  for (auto& f : out)
    if (!f.evidence.empty() &&
        model::same_run(f.evidence.front().where.artifact, failure.where.artifact)) {
      f.evidence.push_back(trace_failure_evidence(failure));
      return;
    }
  out.push_back(own());
}
// The user's frame in a fail_reason's `from user code:` section (`File "x.py", line 4, in forward`
// and its code line): "x.py:4 (`if x.sum() > 0:`)", "" when there is none.
std::string user_frame_in(const std::string& reason);

// A Python exception the log shows only in part: its traceback stops before the exception line
// (complete == false). Checks say so instead of quoting a type and message there are none of.
bool is_cut_off(const model::LogEvent& e);
// What a finding says of such an exception: "the log stops inside a traceback before its exception
// line; the innermost frame is <function> in <file>:<line> (<subsystem>)".
std::string cut_off_text(const model::LogEvent& e);
// The innermost frame outside torch, Triton and Python's own modules: the code that called into
// torch when it failed (the user's, or a library's such as transformers'). nullptr if none.
const model::LogFrame* innermost_caller(const model::LogEvent& e);

// Whether an event states an error (anything but a deprecation note or a compiler command).
bool is_error(const model::LogEvent& e);

// The events of one artifact, in order.
std::vector<const model::LogEvent*> events_of(const model::Case& c, const std::string& artifact);
std::vector<std::string> log_artifacts(
    const model::Case& c);  // artifacts that produced events, in order

// Evidence: the exception line, the first `n` lines of its message, the user's frame. Each is a
// quote of the log's line `line`, whose text (trimmed) the event keeps.
model::Evidence line_evidence(const model::LogEvent& e, int line, const std::string& text,
                              std::string note);
// A frame's code line (the line under `File "x.py", line N, in f`), as the log holds it.
model::Evidence code_evidence(const model::LogEvent& e, const model::LogFrame& frame,
                              std::string note);
void add_detail_evidence(const model::LogEvent& e, std::size_t first, std::size_t count,
                         const std::string& note, std::vector<model::Evidence>& out);
// The exception this one was raised `from`, followed back to the first of the chain (the same
// artifact's events, by the line Python printed it at); nullptr when it has no direct cause.
const model::LogEvent* root_cause(const model::Case& c, const model::LogEvent& e);
// The exception whose message holds `e`'s traceback (a wrapper that quotes the error it caught,
// printed before it), nullptr when none.
const model::LogEvent* wrapping_exception(const model::Case& c, const model::LogEvent& e);
// Where the failure began: the root cause's exception line (when there is one), then the
// innermost frame that raised it with its code line (torch's, Triton's, a package's or the
// user's, but not Python's own modules). Each is a quote of its log line.
void add_origin_evidence(const model::Case& c, const model::LogEvent& e,
                         std::vector<model::Evidence>& out);

// The user's own frame (`File "x.py", line 77, in <module>` and its code line), when there is one.
void add_user_frame_evidence(const model::LogEvent& e, std::vector<model::Evidence>& out);
// The native call path TORCH_SHOW_CPP_STACKTRACES=1 prints under an error on `e`'s line or just
// after it (c10's `frame #N: f + 0x.. (0x.. in lib.so)`): the innermost named frame past c10's
// own, and the generated model's frame that made the call, quoted at their lines.
void add_native_path_evidence(const model::Case& c, const model::LogEvent& e,
                              std::vector<model::Evidence>& out);
// The op of a "size/stride assert": the generated code's call on the line above (LogEvent::op),
// else torch's `Error in op: torch.ops.ns.op.default` line under the message, with its index in
// e.detail (-1 when from the call); "" when neither names one.
std::pair<std::string, int> checked_op(const model::LogEvent& e);

const model::LogFrame* user_frame(const model::LogEvent& e);
// `, at /home/me/model.py:12: \`if x.sum() > 0:\`` for a sentence about where it happened; "" for
// no frame.
std::string at_frame(const model::LogFrame* frame);
// torch.fx's `While executing %item : [...] = call_method[target=item](...)` among the exception's
// further lines: its index in e.detail and the node's target ("item"); {-1, ""} when none.
std::pair<int, std::string> graph_node(const model::LogEvent& e);
// The target of one such line (`call_method[target=item](...)` -> "item"); "" when it names none.
std::string graph_node_target(std::string_view line);

// A failed AOTI call (`... API call failed at F, line N`) made by code Inductor generated (the
// model's wrapper, or a cpp_wrapper module's .main.cpp): F is generated, not the runner's source.
bool is_generated_code_call(const model::LogEvent& e);
// The runtime's own error line before a failed call (`anchor`), within 40 lines: `Error: <what>`
// (interface.cpp prints it before returning a failure code), the shim's `Exception in aoti_torch:
// ...`, or a CUDA error; nullptr if none.
const model::LogEvent* runtime_cause_before(const std::vector<const model::LogEvent*>& events,
                                            const model::LogEvent& anchor);
// The native frames under `e` (innermost first, at most `max`) that lie in a shared library that
// is neither torch's, CUDA's, Triton's nor the system's: an extension's own code. The library's
// error printer at the top (a GetStackTrace / backtrace helper) is skipped.
std::vector<const model::LogFrame*> library_frames(const model::LogEvent& e, std::size_t max);

// `python /home/me/export.py` when the traceback's outermost frame is a script's `<module>`.
std::string script_command(const model::LogEvent& e);
// The script command of any exception in the artifact, "" if none names one.
std::string script_command(const model::Case& c, const std::string& artifact);

// `env` set for a re-run of the script ("TORCH_COMPILE_DEBUG=1 python /home/me/export.py"), or,
// with no script known, exported for whatever the user runs next ("export TORCH_COMPILE_DEBUG=1").
std::string with_env(std::string_view env, const std::string& script);

}  // namespace aoti::checks::failures
