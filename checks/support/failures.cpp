#include "checks/support/failures.hpp"
#include "checks/support/commands.hpp"
#include "checks/support/crash.hpp"
#include "checks/support/finding.hpp"
#include "torch/error_messages.hpp"
#include "util/text.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iterator>
#include <memory>

#include <fmt/format.h>

namespace aoti::checks::failures {
using namespace aoti::model;

namespace {

std::string_view last_component(std::string_view type) {
  const auto dot = type.rfind('.');
  return dot == std::string_view::npos ? type : type.substr(dot + 1);
}

// `LoweringException: NotImplementedError: x` -> "LoweringException", then "NotImplementedError".
void types_in(std::string_view text, std::vector<std::string>& out) {
  for (int depth = 0; depth < 8; ++depth) {
    std::size_t end = 0;
    while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) ||
                                 text[end] == '_' || text[end] == '.'))
      ++end;
    if (end == 0 || end >= text.size() || text[end] != ':') return;
    const auto type = last_component(text.substr(0, end));
    if (type.empty() || !std::isupper(static_cast<unsigned char>(type[0]))) return;
    out.emplace_back(type);
    text = text.substr(end + 1);
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  }
}

bool any_type(const std::vector<std::string>& types,
              std::initializer_list<std::string_view> names) {
  for (const auto& type : types)
    for (auto name : names)
      if (type == name) return true;
  return false;
}

// Which phase of PyTorch a traceback was in: its innermost frame in one of the phases' folders
// (an error in export's tracing machinery is below torch/export; Inductor's below torch/_inductor).
Route phase_of(const LogEvent& e) {
  for (auto frame = e.frames.rbegin(); frame != e.frames.rend(); ++frame) {
    if (frame->native) continue;
    const std::string& file = frame->file;
    // Loading a compiled model: aot_load, aoti_load_package and the package loader.
    if (file.find("torch/_inductor/package/") != std::string::npos ||
        file.find("torch/export/pt2_archive/") != std::string::npos ||
        (file.find("torch/_export/") != std::string::npos && frame->function == "aot_load") ||
        (file.find("torch/_inductor/") != std::string::npos &&
         frame->function == "aoti_load_package"))
      return Route::runner;
    if (file.find("torch/_inductor/") != std::string::npos) return Route::inductor;
    if (file.find("torch/_dynamo/") != std::string::npos ||
        file.find("torch/export/") != std::string::npos ||
        file.find("torch/_export/") != std::string::npos)
      return Route::export_;
  }
  return Route::none;
}

bool has(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

std::vector<std::string> exception_types(const LogEvent& e) {
  std::vector<std::string> out;
  if (e.kind != LogEventKind::python_exception) return out;
  out.emplace_back(last_component(e.subject));
  types_in(e.value, out);
  // BackendCompilerFailed: `backend='inductor' raised:` and the inner exception on the next line.
  if (const std::string own = own_message(e); own != e.value) types_in(own, out);
  return out;
}

bool names_type(const LogEvent& e, std::string_view type) {
  const auto types = exception_types(e);
  return std::find(types.begin(), types.end(), type) != types.end();
}

bool raised_in(const LogEvent& e, std::string_view part) {
  return std::any_of(e.frames.begin(), e.frames.end(), [&](const LogFrame& f) {
    return !f.native && f.file.find(part) != std::string::npos;
  });
}

std::string message_text(const LogEvent& e) {
  std::string text = e.value;
  for (const auto& line : e.detail) text += "\n" + line;
  return text;
}

std::string own_message(const LogEvent& e) {
  if (e.value.ends_with("raised:") && !e.detail.empty() && !e.detail.front().empty())
    return e.detail.front();
  return e.value;
}

Route route_of(const LogEvent& e) {
  if (e.kind != LogEventKind::python_exception) return Route::none;
  if (e.problem == "data-dependent guard" || e.problem == "constraint violation" ||
      e.problem == "missing fake" || e.problem == "fake mismatch" ||
      e.problem == "opcheck fake mismatch" ||
      e.problem == "non-finite values" ||                  // numerics.nan-inf's
      e.problem == "concrete sizes of a symbolic tensor")  // customop.meta-not-symint's
    return Route::routed_elsewhere;
  // customop.fake-mismatch's, unless it names an op of torch's own.
  if (e.problem == "size/stride assert") {
    const std::string op = checked_op(e).first;
    if (op.empty() || torch::is_custom_op_target(op)) return Route::routed_elsewhere;
  }
  if (e.problem == "load failure" || e.problem == "op not registered" ||
      e.problem == "own module missing")
    return Route::load;
  // A kernel that ran faulted (cuda.illegal-memory-access's), whichever phase launched it: Inductor
  // benchmarking or warming up a compiled graph runs its kernels too.
  if (torch::is_illegal_memory_access(own_message(e))) return Route::routed_elsewhere;
  const auto types = exception_types(e);
  const std::string message = message_text(e);
  // The build: Inductor's compile errors, a compiler that could not run, or an error raised while
  // building C++ (cpp_builder, cpp_extension: the CUDA toolkit or compiler not found; Triton's
  // launcher build: no C compiler).
  const bool compiler_process = names_type(e, "CalledProcessError") && has(e.value, "Command '[");
  if (any_type(types, {"CppCompileError", "CUDACompileError", "InvalidCxxCompiler"}) ||
      compiler_process || raised_in(e, "torch/utils/cpp_extension.py") ||
      raised_in(e, "torch/_inductor/cpp_builder.py") || raised_in(e, "triton/runtime/build.py") ||
      // triton/runtime/build.py's and torch/utils/cpp_extension.py's own messages, when no frame is
      // shown
      has(message, "Failed to find C compiler. Please specify via CC environment variable") ||
      has(message, "mismatches the version that was used to compile") ||
      has(message, "CUDA_HOME environment variable is not set"))
    return Route::build;
  // Triton's frontend rejecting the kernel source Inductor generated: code generation, although
  // it is raised below triton/compiler.
  if (any_type(types, {"CompilationError"})) return Route::inductor;
  // Where the chain began: the first exception of the direct causes, else this one; without
  // frames, the subsystem whose own message it carries.
  auto origin =
      e.root_cause_raised_in != torch::Subsystem::unknown ? e.root_cause_raised_in : e.raised_in;
  if (const auto stated = torch::subsystem_of_message(message);
      stated != torch::Subsystem::unknown &&
      (origin == torch::Subsystem::unknown || !torch::is_torch(origin) ||
       origin == torch::Subsystem::dynamo))
    origin = stated;
  // The driver refused a kernel that compiled: not a build, lowering or tracing failure.
  if (origin == torch::Subsystem::kernel_load) return Route::none;
  if (origin == torch::Subsystem::inductor_build || origin == torch::Subsystem::cpp_extension ||
      origin == torch::Subsystem::triton_compile)
    return Route::build;
  if (origin == torch::Subsystem::fake_tensor) return Route::export_;
  // torch/_inductor/exc.py's GPUTooOldForTriton, raised when Inductor picks its GPU backend.
  if (has(message, "which is too old to be supported by the triton GPU compiler"))
    return Route::inductor;
  const Route phase = phase_of(e);
  if (phase == Route::runner) return Route::runner;
  if (any_type(types, {"LoweringException", "MissingOperatorWithoutDecomp",
                       "MissingOperatorWithDecomp", "CppWrapperCodegenError",
                       "SubgraphLoweringException", "CompilationError", "InductorError"}))
    return Route::inductor;
  // The compiler backend failed on a graph Dynamo captured (`backend='inductor' raised:`, or
  // torch 2.0's `debug_wrapper raised ...`): a compile failure, not a tracing one.
  if (names_type(e, "BackendCompilerFailed")) return Route::inductor;
  if (any_type(types, {"Unsupported", "UserError", "TorchRuntimeError", "InternalTorchDynamoError",
                       "UncapturedHigherOrderOpError", "ConstraintViolationError",
                       "GuardOnDataDependentSymNode", "SpecializationError", "ExportError",
                       "TorchDynamoException"}) ||
      e.subject.starts_with("torch._dynamo.") || e.subject.starts_with("torch._export.") ||
      e.subject.starts_with("torch.export."))
    return Route::export_;
  if (phase != Route::none) return phase;
  // Where it was raised, when no frame of a phase folder says it (a bare `Unsupported: ...`, a
  // Dynamo message's footer without its exception line).
  switch (origin) {
    case torch::Subsystem::dynamo:
    case torch::Subsystem::export_:
    case torch::Subsystem::export_serialize:
    case torch::Subsystem::aot_autograd:
      return Route::export_;
    case torch::Subsystem::inductor:
    case torch::Subsystem::inductor_lowering:
    case torch::Subsystem::inductor_codegen:
    case torch::Subsystem::inductor_autotune:
      return Route::inductor;
    case torch::Subsystem::aoti_package:
      return Route::runner;
    default:
      break;
  }
  // Export's functionalization (tracing machinery below torch/export when the frames above were
  // cut).
  if (raised_in(e, "torch/_subclasses/functional_tensor.py") || raised_in(e, "torch/_functorch/") ||
      raised_in(e, "torch/fx/experimental/proxy_tensor.py"))
    return Route::export_;
  if (has(e.value, " API call failed at ")) return Route::runner;
  // torch.fx's Interpreter ran a node of the graph (export's re-trace, its decompositions).
  if (has(message, "While executing %")) return Route::export_;
  return Route::none;
}

Route route_of(const TraceFailure& failure) {
  // shape.data-dependent-guard and customop.fake-missing explain what the whole reason states.
  if (failure.problem == "data-dependent guard" || failure.problem == "missing fake")
    return Route::routed_elsewhere;
  std::vector<std::string> types{failure.fail_type};
  types_in(failure.reason, types);
  if (any_type(types, {"CppCompileError", "CUDACompileError", "InvalidCxxCompiler"}) ||
      (any_type(types, {"CalledProcessError"}) && has(failure.reason, "Command '[")))
    return Route::build;
  if (any_type(types, {"InductorError", "LoweringException", "MissingOperatorWithoutDecomp",
                       "MissingOperatorWithDecomp", "CppWrapperCodegenError", "CompilationError",
                       "SubgraphLoweringException", "BackendCompilerFailed"}))
    return Route::inductor;
  return Route::export_;
}

Evidence trace_failure_evidence(const TraceFailure& failure) {
  const std::string reason = failure.reason.substr(0, failure.reason.find('\n'));
  return fact(
      Location{failure.where.artifact, "", 0},
      fmt::format("{}{}: fail_type = {}, fail_reason = {}", failure.origin,
                  failure.where.compile_id.empty() ? "" : " " + failure.where.compile_id,
                  failure.fail_type, cut(reason, 200)),
      fmt::format("the trace's record of the failed compile (line {})", failure.where.line));
}

std::string user_frame_in(const std::string& reason) {
  std::string found;
  std::size_t at = reason.find("from user code:");
  if (at == std::string::npos) return "";
  while ((at = reason.find("File \"", at)) != std::string::npos) {
    const auto close = reason.find('"', at + 6);
    if (close == std::string::npos) break;
    const std::string file = reason.substr(at + 6, close - at - 6);
    const auto line_at = reason.find(", line ", close);
    if (line_at != close + 1) {
      at = close;
      continue;
    }
    std::size_t end = line_at + 7;
    while (end < reason.size() && std::isdigit(static_cast<unsigned char>(reason[end]))) ++end;
    const std::string line = reason.substr(line_at + 7, end - line_at - 7);
    std::string code;
    if (const auto nl = reason.find('\n', end); nl != std::string::npos) {
      const auto next = reason.find('\n', nl + 1);
      code = reason.substr(nl + 1, (next == std::string::npos ? reason.size() : next) - nl - 1);
      code.erase(0, code.find_first_not_of(' '));
    }
    if (!torch::is_framework_file(file) && !line.empty())
      found = fmt::format("{}:{}{}", file, line, code.empty() ? "" : " (`" + code + "`)");
    at = end;
  }
  return found;
}

bool is_shape_error(std::string_view text) {
  for (std::string_view marker :
       {"shapes cannot be multiplied", "must match the size of tensor",
        "' is invalid for input of size", "Sizes of tensors must match", "size mismatch"})
    if (text.find(marker) != std::string_view::npos) return true;
  return false;
}

bool is_error(const LogEvent& e) {
  // A deprecation, a command line, a printed size, a loaded library or a program run is what
  // happened, not an error.
  return e.kind != LogEventKind::deprecated_api && e.kind != LogEventKind::compile_command &&
         e.kind != LogEventKind::observed_shape && e.kind != LogEventKind::loaded_module &&
         e.kind != LogEventKind::program_run && e.kind != LogEventKind::printed_nonfinite;
}

std::vector<const LogEvent*> events_of(const Case& c, const std::string& artifact) {
  std::vector<const LogEvent*> out;
  for (const auto& e : c.log_events)
    if (e.where.artifact == artifact) out.push_back(&e);
  std::stable_sort(out.begin(), out.end(), [](const LogEvent* a, const LogEvent* b) {
    return a->where.line < b->where.line;
  });
  return out;
}

std::vector<std::string> log_artifacts(const Case& c) {
  std::vector<std::string> out;
  for (const auto& e : c.log_events)
    if (std::find(out.begin(), out.end(), e.where.artifact) == out.end())
      out.push_back(e.where.artifact);
  return out;
}

Evidence line_evidence(const LogEvent& e, int line, const std::string& text, std::string note) {
  Evidence quote{Location{e.where.artifact, e.where.entry, line}, quoted_line(text),
                 std::move(note)};
  quote.kind = EvidenceKind::quote;
  return quote;
}

Evidence code_evidence(const LogEvent& e, const LogFrame& frame, std::string note) {
  return line_evidence(e, frame.code_line > 0 ? frame.code_line : frame.log_line + 1,
                       frame.code_text.empty() ? frame.code : frame.code_text, std::move(note));
}

void add_detail_evidence(const LogEvent& e, std::size_t first, std::size_t count,
                         const std::string& note, std::vector<Evidence>& out) {
  for (std::size_t i = first; i < e.detail.size() && i < first + count; ++i) {
    const std::string& text = e.detail[i];
    if (text.find_first_not_of(' ') == std::string::npos) continue;
    // Lines as the log holds them, leading spaces trimmed like every quoted log line.
    const auto start = text.find_first_not_of(' ');
    out.push_back(line_evidence(e, e.where.line + 1 + static_cast<int>(i),
                                text.substr(start, text.find_last_not_of(' ') - start + 1),
                                i == first ? note : note + ", continued"));
  }
}

std::pair<std::string, int> checked_op(const LogEvent& e) {
  if (!e.op.empty()) return {e.op, -1};
  for (std::size_t i = 0; i < e.detail.size(); ++i)
    if (const auto at = e.detail[i].find("Error in op: "); at != std::string::npos)
      return {std::string(aoti::util::trim(e.detail[i].substr(at + 13))), static_cast<int>(i)};
  return {"", -1};
}

const LogEvent* wrapping_exception(const Case& c, const LogEvent& e) {
  if (e.link != ExceptionLink::inside_message || e.chained_from_line <= 0) return nullptr;
  for (const auto& other : c.log_events)
    if (other.kind == LogEventKind::python_exception && other.where.artifact == e.where.artifact &&
        other.where.line == e.chained_from_line)
      return &other;
  return nullptr;
}

std::pair<int, std::string> graph_node(const LogEvent& e) {
  for (std::size_t i = 0; i < e.detail.size(); ++i) {
    const std::string& line = e.detail[i];
    if (line.find("While executing %") != std::string::npos)
      return {static_cast<int>(i), graph_node_target(line)};
  }
  return {-1, ""};
}

std::string graph_node_target(std::string_view line) {
  const auto target = line.find("target=");
  if (target == std::string_view::npos) return "";
  return std::string(line.substr(target + 7, line.find_first_of("]( ", target + 7) - target - 7));
}

bool is_generated_code_call(const LogEvent& e) {
  return e.kind == LogEventKind::api_call_failed &&
         (e.source_file.ends_with(".wrapper.cpp") || torch::is_generated_file(e.source_file));
}

const LogEvent* runtime_cause_before(const std::vector<const LogEvent*>& events,
                                     const LogEvent& anchor) {
  constexpr int k_window = 40;
  const LogEvent* cause = nullptr;
  for (const LogEvent* e : events) {
    if (e->where.line > anchor.where.line || anchor.where.line - e->where.line > k_window) continue;
    if ((e->kind == LogEventKind::runtime_error &&
         (e->problem == "error" || e->problem == "shim exception" ||
          e->problem == "unknown exception")) ||
        e->kind == LogEventKind::cuda_error)
      cause = e;
  }
  return cause;
}

std::string at_frame(const LogFrame* frame) {
  if (!frame) return "";
  return fmt::format(", at {}:{}{}", frame->file, frame->line,
                     frame->code.empty() ? "" : fmt::format(": `{}`", frame->code));
}

const LogFrame* user_frame(const LogEvent& e) {
  if (e.user_frame < 0 || static_cast<std::size_t>(e.user_frame) >= e.frames.size()) return nullptr;
  return &e.frames[static_cast<std::size_t>(e.user_frame)];
}

std::vector<const LogFrame*> library_frames(const LogEvent& e, std::size_t max) {
  std::vector<const LogFrame*> out;
  for (const auto& frame : e.frames) {
    if (out.size() >= max) break;
    if (!frame.native || frame.function.empty() || frame.function == "<unknown function>" ||
        frame.file.empty() || frame.file.find(".so") == std::string::npos ||
        is_known_library(frame.file))
      continue;
    // The library's own error printer at the top (k2's GetStackTrace, a backtrace() helper)
    // records where the error was printed, not where it happened.
    std::string lower = frame.function.substr(0, frame.function.find('('));
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    if (out.empty() && (lower.find("stacktrace") != std::string::npos ||
                        lower.find("backtrace") != std::string::npos))
      continue;
    out.push_back(&frame);
  }
  return out;
}

void add_user_frame_evidence(const LogEvent& e, std::vector<Evidence>& out) {
  const LogFrame* frame = user_frame(e);
  if (!frame) return;
  out.push_back(line_evidence(
      e, frame->log_line, frame->text,
      fmt::format("the innermost frame of your own code ({}:{})", frame->file, frame->line)));
  if (!frame->code.empty()) out.push_back(code_evidence(e, *frame, "the line that raised"));
}

void add_native_path_evidence(const Case& c, const LogEvent& e, std::vector<Evidence>& out) {
  for (const auto& other : c.log_events) {
    if (other.where.artifact != e.where.artifact || other.where.line < e.where.line ||
        other.where.line > e.where.line + 2)
      continue;
    const LogFrame* raised = nullptr;
    const LogFrame* model = nullptr;
    for (const auto& frame : other.frames) {
      if (!frame.native || frame.log_line <= 0) continue;
      const bool c10_own = frame.function.starts_with("c10::") || frame.file.ends_with("libc10.so");
      if (!raised && !c10_own && frame.function != "<unknown function>" && !frame.function.empty())
        raised = &frame;
      if (!model && (frame.file.ends_with(".wrapper.so") ||
                     frame.file.find("/data/aotinductor/") != std::string::npos))
        model = &frame;
    }
    if (!raised && !model) continue;
    if (raised)
      out.push_back(line_evidence(other, raised->log_line, raised->text,
                                  "the native call path (TORCH_SHOW_CPP_STACKTRACES): the "
                                  "innermost named frame outside c10's error checking"));
    if (model && model != raised)
      out.push_back(line_evidence(other, model->log_line, model->text,
                                  "the native call path: the generated model's frame that made "
                                  "the call"));
    return;
  }
}

const LogEvent* root_cause(const Case& c, const LogEvent& e) {
  const LogEvent* cause = nullptr;
  const LogEvent* current = &e;
  // A chain is as long as the exceptions printed; the bound only guards against a malformed one.
  for (int depth = 0;
       depth < 32 && current->link == ExceptionLink::direct_cause && current->chained_from_line > 0;
       ++depth) {
    const LogEvent* before = nullptr;
    for (const auto& other : c.log_events)
      if (other.kind == LogEventKind::python_exception &&
          other.where.artifact == current->where.artifact &&
          other.where.line == current->chained_from_line) {
        before = &other;
        break;
      }
    if (!before || before == current) break;
    cause = current = before;
  }
  return cause;
}

void add_origin_evidence(const Case& c, const LogEvent& e, std::vector<Evidence>& out) {
  const auto quoted = [&](int line) {
    return std::any_of(out.begin(), out.end(), [&](const Evidence& q) {
      return q.where.artifact == e.where.artifact && q.where.line == line;
    });
  };
  const LogEvent* cause = root_cause(c, e);
  const LogEvent& origin = cause ? *cause : e;
  if (cause && !quoted(cause->where.line))
    out.push_back(line_evidence(*cause, cause->where.line, cause->text,
                                "the exception it was raised from (the first of the chain)"));
  // The innermost frame that raised it, its code, and the frame that called it.
  for (auto frame = origin.frames.rbegin(); frame != origin.frames.rend(); ++frame) {
    if (frame->native) continue;
    const auto subsystem = torch::subsystem_of(frame->file, frame->function);
    if (subsystem == torch::Subsystem::python_runtime || subsystem == torch::Subsystem::unknown)
      continue;
    if (&*frame == user_frame(origin)) break;  // the user's frame is quoted on its own
    if (!quoted(frame->log_line))
      out.push_back(
          line_evidence(origin, frame->log_line, frame->text,
                        fmt::format("where it was raised ({})", torch::to_string(subsystem))));
    if (!frame->code.empty() &&
        !quoted(frame->code_line > 0 ? frame->code_line : frame->log_line + 1))
      out.push_back(code_evidence(origin, *frame, "the line that raised it"));
    const auto caller = std::next(frame);
    if (caller != origin.frames.rend() && !caller->native && &*caller != user_frame(origin) &&
        !quoted(caller->log_line))
      out.push_back(line_evidence(origin, caller->log_line, caller->text, "called from"));
    break;
  }
}

std::string script_command(const LogEvent& e) {
  for (const auto& frame : e.frames)
    if (!frame.native && frame.function == "<module>" && frame.file.ends_with(".py") &&
        !torch::is_framework_file(frame.file))
      return "python " + shell_word(frame.file);
  return "";
}

std::string script_command(const Case& c, const std::string& artifact) {
  for (const auto& e : c.log_events)
    if (e.where.artifact == artifact)
      if (auto command = script_command(e); !command.empty()) return command;
  return "";
}

std::string with_env(std::string_view env, const std::string& script) {
  return script.empty() ? fmt::format("export {}", env) : fmt::format("{} {}", env, script);
}

bool is_cut_off(const LogEvent& e) {
  return e.kind == LogEventKind::python_exception && !e.complete;
}

std::string cut_off_text(const LogEvent& e) {
  const LogFrame* innermost = nullptr;
  for (auto frame = e.frames.rbegin(); frame != e.frames.rend(); ++frame)
    if (!frame->native) {
      innermost = &*frame;
      break;
    }
  std::string text = "the log stops inside a traceback, before its exception line";
  if (innermost)
    text +=
        fmt::format("; the innermost frame is `{}` in {}:{}", innermost->function,
                    innermost->file.substr(innermost->file.find_last_of('/') + 1), innermost->line);
  if (e.raised_in != torch::Subsystem::unknown)
    text += fmt::format(" ({})", torch::to_string(e.raised_in));
  return text;
}

const LogFrame* innermost_caller(const LogEvent& e) {
  for (auto frame = e.frames.rbegin(); frame != e.frames.rend(); ++frame) {
    if (frame->native) continue;
    const auto subsystem = torch::subsystem_of(frame->file, frame->function);
    if (subsystem == torch::Subsystem::user || subsystem == torch::Subsystem::third_party)
      return &*frame;
  }
  return nullptr;
}

}  // namespace aoti::checks::failures
