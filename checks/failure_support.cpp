#include "checks/failure_support.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <memory>

#include <fmt/format.h>

namespace aoti::checks::failures {
using namespace aoti::core;

namespace {

std::string_view last_component(std::string_view type) {
  const auto dot = type.rfind('.');
  return dot == std::string_view::npos ? type : type.substr(dot + 1);
}

// `LoweringException: NotImplementedError: x` -> "LoweringException", then "NotImplementedError".
void types_in(std::string_view text, std::vector<std::string>& out) {
  for (int depth = 0; depth < 8; ++depth) {
    std::size_t end = 0;
    while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_' || text[end] == '.'))
      ++end;
    if (end == 0 || end >= text.size() || text[end] != ':') return;
    const auto type = last_component(text.substr(0, end));
    if (type.empty() || !std::isupper(static_cast<unsigned char>(type[0]))) return;
    out.emplace_back(type);
    text = text.substr(end + 1);
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  }
}

bool is_framework_file(std::string_view file) {
  return file.empty() || file.front() == '<' || file.find("/site-packages/") != std::string_view::npos ||
         file.find("/dist-packages/") != std::string_view::npos || file.find("/torch/") != std::string_view::npos ||
         file.find("/lib/python3") != std::string_view::npos || file.starts_with("torch/");
}

bool any_type(const std::vector<std::string>& types, std::initializer_list<std::string_view> names) {
  for (const auto& type : types)
    for (auto name : names)
      if (type == name) return true;
  return false;
}

// The innermost Python frame in PyTorch's own code, "" when there is none.
std::string innermost_torch_file(const LogEvent& e) {
  for (auto frame = e.frames.rbegin(); frame != e.frames.rend(); ++frame)
    if (!frame->native && (frame->file.find("/torch/") != std::string::npos || frame->file.starts_with("torch/")))
      return frame->file;
  return "";
}

}  // namespace

std::vector<std::string> exception_types(const LogEvent& e) {
  std::vector<std::string> out;
  if (e.kind != LogEventKind::python_exception) return out;
  out.emplace_back(last_component(e.subject));
  types_in(e.value, out);
  // BackendCompilerFailed: `backend='inductor' raised:` and the inner exception on the next line.
  if (e.value.ends_with("raised:") && !e.detail.empty()) types_in(e.detail.front(), out);
  return out;
}

bool names_type(const LogEvent& e, std::string_view type) {
  const auto types = exception_types(e);
  return std::find(types.begin(), types.end(), type) != types.end();
}

bool raised_in(const LogEvent& e, std::string_view part) {
  return std::any_of(e.frames.begin(), e.frames.end(),
                     [&](const LogFrame& f) { return !f.native && f.file.find(part) != std::string::npos; });
}

std::string message_text(const LogEvent& e) {
  std::string text = e.value;
  for (const auto& line : e.detail) text += "\n" + line;
  return text;
}

Route route_of(const LogEvent& e) {
  if (e.kind != LogEventKind::python_exception) return Route::none;
  if (e.problem == "data-dependent guard" || e.problem == "constraint violation" || e.problem == "missing fake")
    return Route::routed_elsewhere;
  if (e.problem == "load failure") return Route::load;
  const auto types = exception_types(e);
  // The build: Inductor's compile errors, a compiler that could not run, or an error raised while
  // building C++ (cpp_builder, cpp_extension: the CUDA toolkit or compiler not found).
  const bool compiler_process = names_type(e, "CalledProcessError") && e.value.find("Command '[") != std::string::npos;
  if (any_type(types, {"CppCompileError", "CUDACompileError", "InvalidCxxCompiler"}) || compiler_process ||
      raised_in(e, "torch/utils/cpp_extension.py") || raised_in(e, "torch/_inductor/cpp_builder.py"))
    return Route::build;
  if (any_type(types, {"LoweringException", "MissingOperatorWithoutDecomp", "MissingOperatorWithDecomp",
                       "CppWrapperCodegenError", "SubgraphLoweringException", "CompilationError", "InductorError"}))
    return Route::inductor;
  if (names_type(e, "BackendCompilerFailed") && e.value.find("backend='inductor'") != std::string::npos) return Route::inductor;
  const std::string torch_file = innermost_torch_file(e);
  if (any_type(types, {"Unsupported", "UserError", "TorchRuntimeError", "InternalTorchDynamoError",
                       "UncapturedHigherOrderOpError", "ConstraintViolationError", "GuardOnDataDependentSymNode",
                       "SpecializationError", "ExportError", "TorchDynamoException"}) ||
      e.subject.starts_with("torch._dynamo.") || e.subject.starts_with("torch._export.") || e.subject.starts_with("torch.export."))
    return Route::export_;
  if (torch_file.find("torch/_inductor/package/") != std::string::npos) return Route::runner;
  if (torch_file.find("torch/_inductor/") != std::string::npos) return Route::inductor;
  if (torch_file.find("torch/_dynamo/") != std::string::npos || torch_file.find("torch/export/") != std::string::npos ||
      torch_file.find("torch/_export/") != std::string::npos)
    return Route::export_;
  if (e.value.find(" API call failed at ") != std::string::npos) return Route::runner;
  return Route::none;
}

bool is_error(const LogEvent& e) {
  return e.kind != LogEventKind::deprecated_api && e.kind != LogEventKind::compile_command;
}

std::vector<const LogEvent*> events_of(const Case& c, const std::string& artifact) {
  std::vector<const LogEvent*> out;
  for (const auto& e : c.log_events)
    if (e.where.artifact == artifact) out.push_back(&e);
  std::stable_sort(out.begin(), out.end(), [](const LogEvent* a, const LogEvent* b) { return a->where.line < b->where.line; });
  return out;
}

std::vector<std::string> log_artifacts(const Case& c) {
  std::vector<std::string> out;
  for (const auto& e : c.log_events)
    if (std::find(out.begin(), out.end(), e.where.artifact) == out.end()) out.push_back(e.where.artifact);
  return out;
}

Evidence line_evidence(const LogEvent& e, int line, const std::string& text, std::string note) {
  return Evidence{Location{e.where.artifact, e.where.entry, line}, text, std::move(note)};
}

void add_detail_evidence(const LogEvent& e, std::size_t first, std::size_t count, const std::string& note,
                         std::vector<Evidence>& out) {
  for (std::size_t i = first; i < e.detail.size() && i < first + count; ++i) {
    const std::string& text = e.detail[i];
    if (text.find_first_not_of(' ') == std::string::npos) continue;
    // Lines as the log holds them, leading spaces trimmed like every quoted log line.
    out.push_back(line_evidence(e, e.where.line + 1 + static_cast<int>(i), text.substr(text.find_first_not_of(' ')),
                                i == first ? note : ""));
  }
}

const LogFrame* user_frame(const LogEvent& e) {
  if (e.user_frame < 0 || static_cast<std::size_t>(e.user_frame) >= e.frames.size()) return nullptr;
  return &e.frames[static_cast<std::size_t>(e.user_frame)];
}

void add_user_frame_evidence(const LogEvent& e, std::vector<Evidence>& out) {
  const LogFrame* frame = user_frame(e);
  if (!frame) return;
  out.push_back(line_evidence(e, frame->log_line,
                              fmt::format("File \"{}\", line {}{}", frame->file, frame->line,
                                          frame->function.empty() ? "" : ", in " + frame->function),
                              fmt::format("the innermost frame of your own code ({}:{})", frame->file, frame->line)));
  if (!frame->code.empty()) out.push_back(line_evidence(e, frame->log_line + 1, frame->code, "the line that raised"));
}

std::string script_command(const LogEvent& e) {
  for (const auto& frame : e.frames)
    if (!frame.native && frame.function == "<module>" && frame.file.ends_with(".py") && !is_framework_file(frame.file))
      return "python " + shell_word(frame.file);
  return "";
}

std::string script_command(const Case& c, const std::string& artifact) {
  for (const auto& e : c.log_events)
    if (e.where.artifact == artifact)
      if (auto command = script_command(e); !command.empty()) return command;
  return "";
}

std::string demangle(const std::string& symbol) {
  if (!symbol.starts_with("_Z")) return symbol;
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> plain(abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 && plain ? std::string(plain.get()) : symbol;
}

std::string shell_word(const std::string& text) {
  if (!text.empty() && text.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=+@,%") ==
                           std::string::npos)
    return text;
  std::string out = "'";
  for (char ch : text) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

}  // namespace aoti::checks::failures
