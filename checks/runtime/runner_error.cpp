// runtime.runner-error: an error raised by the AOTI runtime or a C++ runner that no more specific
// check explains: a runner call that failed (`create_func_(...) API call failed at
// model_container_runner.cpp`) with the runtime's own `Error: <what>` before it, a wrong number of
// inputs, an exception out of AOTIModelPackageLoader.
#include "checks/runtime/runner_error.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "checks/support/commands.hpp"
#include "checks/support/failures.hpp"
#include "checks/support/finding.hpp"
#include "util/text.hpp"

namespace aoti::checks {
namespace {
using namespace aoti::model;

namespace fl = failures;

std::string basename_of(std::string_view path) {
  const auto slash = path.find_last_of('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

std::string folder_of(std::string_view path) {
  const auto slash = path.find_last_of('/');
  return std::string(slash == std::string_view::npos ? "" : path.substr(0, slash));
}

// `create_func_( &container_handle_, ...)` -> "create_func_".
std::string call_name(std::string_view call) {
  const auto paren = call.find('(');
  auto name = call.substr(0, paren);
  while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
  return std::string(name);
}

// What a runner call does, for a person; "" for calls not listed.
std::string_view call_purpose(std::string_view call) {
  static constexpr std::pair<std::string_view, std::string_view> k_calls[] = {
      {"create_func_",
       "create the model container: load the model's constants (its weights) onto the device and "
       "its kernels"},
      {"run_func_", "run the model"},
      {"get_num_outputs_func_", "ask the model for its number of outputs"},
      {"update_constant_buffer_func_", "replace the model's constants"},
      {"update_inactive_constant_buffer_func_", "replace the model's inactive constants"},
      {"run_const_fold_func_", "run constant folding"},
      {"swap_constant_buffer_func_", "swap the model's constant buffers"},
      {"get_call_spec_func_", "ask the model for its call spec"},
      {"delete_func_", "delete the model container"},
  };
  for (const auto& [name, purpose] : k_calls)
    if (call == name) return purpose;
  return "";
}

// Errors of the runtime that a more specific check explains.
bool explained_elsewhere(const LogEvent& cause) {
  const std::string& v = cause.value;
  return v.starts_with("input_handles[") ||
         v.find("Could not find schema for ") != std::string::npos ||
         v == "CUDA driver error: file not found" ||
         v.find("Mixed-device constants") != std::string::npos ||
         fl::is_shape_error(v);  // shape.input-checks-off's
}

// The artifact states a cause that another check reports (an input-check error, tensors on two
// devices, an illegal memory access, a device assert, a wrapper line the package holds): the
// runner's exception is only how that cause surfaced.
bool explained_by_other_checks(const Case& c, const std::vector<const LogEvent*>& events) {
  for (const LogEvent* e : events) {
    switch (e->kind) {
      case LogEventKind::input_check_error:
      case LogEventKind::tensors_on_different_devices:
      case LogEventKind::pointer_on_host:
      case LogEventKind::out_tensor_device:
      case LogEventKind::mixed_device_constants:
      case LogEventKind::triton_assert:
        return true;
      case LogEventKind::cuda_error:
        if (e->value == "an illegal memory access was encountered" ||
            e->value == "device-side assert triggered")
          return true;
        break;
      case LogEventKind::api_call_failed:  // runtime.api-call-failed's
        if (fl::is_generated_code_call(*e)) return true;
        break;
      default:
        break;
    }
  }
  return false;
}

std::string explain(const std::string& call, const std::string& what) {
  if (what.find("out of memory") != std::string::npos) {
    if (call == "create_func_")
      return "The device ran out of memory while the container loaded the model's constants: the "
             "model's weights "
             "need that much free device memory on top of what the process already holds — an "
             "eager copy of the same "
             "model, a previous runner, the caching allocator's reserve. Load the compiled model "
             "before (or instead "
             "of) the eager one, or free the eager weights first.";
    return "The device ran out of memory while the model ran: its activations, on top of its "
           "weights and what the "
           "process already holds, do not fit.";
  }
  if (what.find("CUDA error") != std::string::npos ||
      what.find("CUDA driver error") != std::string::npos)
    return fmt::format(
        "A CUDA call inside the AOTI runtime failed{}. The CUDA error names the reason; with "
        "asynchronous "
        "kernel launches it can come from an earlier kernel.",
        call == "create_func_"
            ? " while the model was being created (constants copied to the device, kernels loaded)"
            : "");
  if (call == "create_func_")
    return "Creating the container loads the model: its constants, its kernels and its device. The "
           "AOTI runtime's "
           "own message (an `Error:` line before the failed call) says what went wrong.";
  return "The AOTI runtime reports its own error on stderr (an `Error: ...` line) before the "
         "runner turns the failure "
         "code into this exception; that line says what went wrong.";
}

std::vector<NextStep> steps(const Case& c, const std::string& artifact, const std::string& what) {
  std::vector<NextStep> out;
  const std::string script = fl::script_command(c, artifact);
  if (what.find("out of memory") != std::string::npos)
    out.push_back({"see how much device memory is in use, and by which processes",
                   "nvidia-smi --query-gpu=memory.used,memory.total --format=csv; nvidia-smi "
                   "--query-compute-apps=pid,used_memory --format=csv"});
  if (what.find("CUDA") != std::string::npos)
    out.push_back(
        {"re-run with synchronous kernel launches and C++ stack traces, so the error is reported "
         "where it happens",
         fl::with_env("CUDA_LAUNCH_BLOCKING=1 TORCH_SHOW_CPP_STACKTRACES=1", script)});
  else
    out.push_back(
        {"re-run with C++ stack traces and the runtime's input checks",
         fl::with_env("TORCH_SHOW_CPP_STACKTRACES=1 AOTI_RUNTIME_CHECK_INPUTS=1", script)});
  return out;
}

Finding report(const Case& c, const std::string& artifact,
               const std::vector<const LogEvent*>& events, const LogEvent* call,
               const LogEvent* cause, const LogEvent* loader, bool wrong_inputs) {
  Finding f = new_finding(RuntimeRunnerErrorCheck::k_info, Severity::error, 0.7);
  f.explains_failure = true;
  // The failed call, from the runner's event or from the exception that carries it (a line a paste
  // cut before its `line N`).
  std::string name = call ? call_name(call->subject) : "";
  if (name.empty() && loader && loader->value.find(" API call failed at ") != std::string::npos)
    name = call_name(loader->value);
  const std::string purpose(call_purpose(name));
  // What the runtime said: a CUDA error with its own words (`CUDA error: out of memory`).
  const std::string what =
      !cause ? (loader ? fmt::format("{}: {}", loader->subject, loader->value) : "")
      : cause->kind == LogEventKind::cuda_error
          ? fmt::format("{}: {}", cause->subject, cause->value)
          : cause->value;
  f.subject = fmt::format("runner {}", name.empty() ? (wrong_inputs ? "inputs" : "loader") : name);
  if (wrong_inputs) {
    f.title = fmt::format("The model was run with the wrong number of inputs or outputs: `{}`",
                          cause->value);
    f.message = fmt::format(
        "The AOTI runtime checks the number of input and output tensors before it runs the model, "
        "and reported `{}`.",
        cause->text);
    f.why =
        "The runner passes the flattened inputs; their number must be the number of tensors the "
        "model was "
        "exported with (inputs of the forward, flattened through lists, tuples and dicts, in the "
        "same order).";
  } else if (!name.empty()) {
    f.title = fmt::format("The AOTI runner call `{}` failed{}", name,
                          what.empty() ? "" : fmt::format(": `{}`", cut(what, 120)));
    f.message =
        fmt::format("{}{}{}.",
                    purpose.empty() ? fmt::format("The runner's call `{}` failed", name)
                                    : fmt::format("The runner could not {}", purpose),
                    cause ? fmt::format("; the AOTI runtime said `{}` just before (line {})",
                                        cause->text, cause->where.line)
                          : "",
                    call ? fmt::format("; the call failed at `{}`, line {}",
                                       basename_of(call->source_file), call->source_line)
                         : "");
    f.why = explain(name, what);
  } else {
    f.title = fmt::format("Loading or running the AOTI model failed: `{}: {}`", loader->subject,
                          cut(loader->value, 120));
    f.message =
        fmt::format("The run ended with `{}: {}`, raised by the AOTI runtime's Python front end.",
                    loader->subject, cut(loader->value, 300));
    f.why = explain("", what);
  }
  if (cause) f.evidence.push_back(event_evidence(*cause, "the AOTI runtime's error"));
  if (call) f.evidence.push_back(event_evidence(*call, "the runner call that failed"));
  // How the process ended: the exception or the abort after the failed call.
  for (const LogEvent* e : events) {
    if (call && e->where.line <= call->where.line && e != loader) continue;
    if ((e->kind == LogEventKind::python_exception && (e->final || e == loader)) ||
        e->kind == LogEventKind::terminate) {
      f.evidence.push_back(
          event_evidence(*e, e->kind == LogEventKind::terminate
                                 ? "the C++ runner did not catch the exception: the process aborted"
                                 : "the exception that ended the run"));
      fl::add_user_frame_evidence(*e, f.evidence);
      break;
    }
  }
  f.next_steps = steps(c, artifact, what);
  f.chain = {name.empty() ? "AOTI runtime" : name, what.empty() ? "failed" : cut(what, 60),
             "run stopped"};
  return f;
}
// The C++ entry points of torch's runners that a program calls to load or run a model. A frame
// of one of them under an uncaught exception says which call of the program threw.
const LogFrame* runner_entry_frame(const LogEvent& e) {
  static constexpr std::string_view k_entry_points[] = {
      "torch::jit::load(",
      "torch::jit::Module::forward(",
      "torch::jit::Method::operator()(",
      "torch::inductor::AOTIModelPackageLoader::",
      "torch::inductor::AOTIModelContainerRunner",
      "torch::load(",
      // The archive reader every load of a saved module, tensor file or package goes through:
      // the load call, when the frames under the error stop before the program's own.
      "caffe2::serialize::PyTorchStreamReader::",
  };
  // Innermost first: the outermost entry point is the program's own call.
  const LogFrame* entry = nullptr;
  for (const auto& frame : e.frames)
    if (frame.native)
      for (std::string_view point : k_entry_points)
        if (frame.function.starts_with(point)) entry = &frame;
  return entry;
}

// An exception out of a C++ program's call into torch's runner that the program did not catch
// (`terminate called after throwing an instance of 'c10::Error'`, then c10's frames).
Finding report_uncaught(const Case& c, const LogEvent& e, const LogFrame& entry) {
  Finding f = new_finding(RuntimeRunnerErrorCheck::k_info, Severity::error, 0.7);
  f.explains_failure = true;
  const std::string call = entry.function.substr(0, entry.function.find('('));
  f.subject = "runner " + call;
  f.title = fmt::format("torch's `{}` threw `{}`{}", call, e.subject,
                        e.value.empty() ? "" : fmt::format(": `{}`", cut(e.value, 100)));
  // The frame after the entry point (further out) is the program's own.
  const LogFrame* caller = nullptr;
  for (std::size_t i = 0; i + 1 < e.frames.size(); ++i)
    if (&e.frames[i] == &entry && e.frames[i + 1].native) caller = &e.frames[i + 1];
  f.message = fmt::format(
      "Line {} of {}: the process aborted on an exception it did not catch{}. The native frames "
      "under it show it was thrown inside `{}`{}{}.",
      e.where.line, e.where.artifact,
      e.value.empty() ? "" : fmt::format(", whose message is `{}`", e.value),
      cut(entry.function, 200), entry.file.empty() ? "" : fmt::format(" ({})", entry.file),
      caller ? fmt::format(", called from `{}`{}", cut(caller->function, 120),
                           caller->file.empty() ? "" : fmt::format(" in {}", caller->file))
             : "");
  f.why =
      "torch's C++ runners report a model they cannot load or run by throwing c10::Error; a "
      "program that does not catch it ends in terminate. The message is torch's own statement of "
      "why the call failed; a model written by a newer torch than the libtorch the program links, "
      "or a file of another kind, are the usual reasons a load fails.";
  f.evidence.push_back(event_evidence(e, "the uncaught exception"));
  fl::add_detail_evidence(e, 0, 1, "its message (what())", f.evidence);
  f.evidence.push_back(fl::line_evidence(e, entry.log_line, entry.text,
                                         "torch's loader or runner frame it was thrown in"));
  if (caller)
    f.evidence.push_back(
        fl::line_evidence(e, caller->log_line, caller->text, "the program's frame that called it"));
  // The libtorch the program links against, next to the torch that wrote the model.
  if (caller && !caller->file.empty() && !caller->file.ends_with(".so") &&
      caller->file.find(".so.") == std::string::npos)
    f.next_steps.push_back(
        {"see which libtorch the program loads; the model must be written by "
         "the same torch version (or an older one)",
         fmt::format("ldd {} | grep -E 'libtorch|libc10'", shell_word(caller->file))});
  f.next_steps.push_back(
      {"catch c10::Error around the call and print e.what(): the full message, with C++ stack "
       "traces",
       fl::with_env("TORCH_SHOW_CPP_STACKTRACES=1", "")});
  f.chain = {caller ? cut(caller->function, 40) : "program", call, "terminate"};
  return f;
}

// A nonzero exit stated after a command (GitHub Actions' `Error: Process completed with exit code
// 1.`, make's `Error 1`, `exit status 2`).
bool states_failed_exit(const LogEvent& e) {
  for (std::string_view words : {"exit code ", "exit status "}) {
    const auto at = e.text.find(words);
    if (at != std::string::npos && at + words.size() < e.text.size() &&
        e.text[at + words.size()] >= '1' && e.text[at + words.size()] <= '9')
      return true;
  }
  return false;
}

// A runner program the log shows being run on a model (a shell's `+ ./aoti_run model.so ...`)
// that failed: an uncaught exception or a crash among its output, or a nonzero exit after it. The
// error it printed: that exception, else its first output line. nullptr when it did not fail.
struct FailedRun {
  const LogEvent* run = nullptr;
  const LogEvent* error = nullptr;  // a terminate / crash in its output; nullptr: its first line
};
std::optional<FailedRun> failed_run(const std::vector<const LogEvent*>& events,
                                    const LogEvent& run) {
  const int last_output = run.where.line + static_cast<int>(run.detail.size()) + 1;
  bool failed = false;
  FailedRun out{&run, nullptr};
  for (const LogEvent* e : events) {
    if (e->where.line <= run.where.line) continue;
    if (e->kind == LogEventKind::program_run) break;
    if (e->where.line <= last_output &&
        (e->kind == LogEventKind::terminate || e->kind == LogEventKind::segfault)) {
      failed = true;
      if (!out.error) out.error = e;
    }
    failed |= states_failed_exit(*e);
  }
  if (!failed || (run.detail.empty() && !out.error)) return std::nullopt;
  return out;
}

Finding report_run(const Case& c, const FailedRun& failed) {
  const LogEvent& run = *failed.run;
  Finding f = new_finding(RuntimeRunnerErrorCheck::k_info, Severity::error, 0.65);
  f.explains_failure = true;
  // What the program said: the exception it died of, else its first output line.
  const std::string said =
      failed.error ? failed.error->subject.empty()
                         ? failed.error->text
                         : fmt::format("{}: {}", failed.error->subject, failed.error->value)
                   : std::string(util::trim(run.detail.front()));
  const std::string command(util::trim(util::after(run.text, "+ ")));
  f.subject = "runner run " + run.subject;
  f.title = fmt::format("The runner `{}` failed on `{}`: {}", basename_of(run.subject), run.value,
                        code_span(said, 120));
  f.message = fmt::format(
      "The log runs `{}`, a program given the model `{}`, and it failed: {}.", cut(command, 300),
      run.value,
      failed.error
          ? fmt::format("it ended on `{}`", cut(said, 300))
          : fmt::format("its output starts with `{}` and the run exited nonzero", cut(said, 300)));
  f.why =
      "The runner stopped on its own error, in its own words (quoted below): the files and "
      "options on its command line are the first suspects (a path that does not exist on this "
      "machine, an option that does not fit the model or its tokenizer).";
  f.evidence.push_back(event_evidence(run, "the command that ran the model"));
  if (failed.error)
    f.evidence.push_back(event_evidence(*failed.error, "how the program ended"));
  else
    fl::add_detail_evidence(run, 0, 1, "the program's first output line", f.evidence);
  // The command's file arguments: each must exist where it runs.
  std::vector<std::string> paths;
  for (std::size_t at = command.find(' '); at != std::string::npos && paths.size() < 6;) {
    const auto start = command.find_first_not_of(' ', at);
    if (start == std::string::npos) break;
    const auto end = std::min(command.find(' ', start), command.size());
    const std::string word = command.substr(start, end - start);
    if (word.find('/') != std::string::npos && word.front() != '-' &&
        word.find_first_of("'\"<>|;&$`") == std::string::npos)
      paths.push_back(word);
    at = end;
  }
  if (!paths.empty())
    f.next_steps.push_back({"check that every file the command names exists where it runs",
                            "ls -l " + join(paths, " ")});
  f.next_steps.push_back({"run the command again, as the log shows it", command});
  f.chain = {basename_of(run.subject), run.value, "failed"};
  return f;
}

}  // namespace

std::vector<Finding> RuntimeRunnerErrorCheck::run(const Case& c) const {
  std::vector<Finding> out;
  for (const auto& artifact : fl::log_artifacts(c)) {
    const auto events = fl::events_of(c, artifact);
    const LogEvent* call = nullptr;  // the runner call that failed
    const LogEvent* size_error =
        nullptr;                       // `Error: expected inputs vector size to be 2, but got 3`
    const LogEvent* loader = nullptr;  // an exception out of the package loader
    for (const LogEvent* e : events) {
      if (e->kind == LogEventKind::api_call_failed && !fl::is_generated_code_call(*e) && !call)
        call = e;
      if (e->kind == LogEventKind::runtime_error && e->problem == "error" &&
          e->value.find(" vector size to be ") != std::string::npos)
        size_error = e;
      if (e->kind == LogEventKind::python_exception && fl::route_of(*e) == fl::Route::runner &&
          !loader)
        loader = e;
    }
    if (!call && !size_error && !loader) {
      bool reported = false;
      for (const LogEvent* e : events)
        if (e->kind == LogEventKind::program_run)
          if (const auto failed = failed_run(events, *e)) {
            out.push_back(report_run(c, *failed));
            reported = true;
          }
      if (reported) continue;
      for (const LogEvent* e : events)
        if (e->kind == LogEventKind::terminate)
          if (const LogFrame* entry = runner_entry_frame(*e)) {
            out.push_back(report_uncaught(c, *e, *entry));
            break;
          }
      continue;
    }
    // The run's other outputs (stdout beside stderr) say the same about it.
    const std::string folder = folder_of(artifact);
    std::vector<const LogEvent*> run_events;
    for (const auto& e : c.log_events)
      if (folder_of(e.where.artifact) == folder) run_events.push_back(&e);
    if (explained_by_other_checks(c, run_events)) continue;
    const LogEvent* anchor = size_error ? size_error : call ? call : loader;
    const LogEvent* cause = size_error ? size_error : fl::runtime_cause_before(events, *anchor);
    if (cause && explained_elsewhere(*cause)) continue;
    out.push_back(report(c, artifact, events, call, cause, loader, size_error != nullptr));
  }
  return out;
}

}  // namespace aoti::checks
