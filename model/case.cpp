#include "model/case.hpp"

#include <algorithm>
#include <filesystem>

#include <algorithm>

namespace aoti::model {

std::string Location::display() const {
  std::string out = artifact;
  if (!entry.empty()) out += ":" + entry;
  if (line > 0) out += ":" + std::to_string(line);
  return out;
}

SourceText::SourceText(std::string text) : m_text(std::move(text)) {
  if (m_text.empty()) return;
  m_starts.push_back(0);
  for (std::size_t i = 0; i < m_text.size(); ++i)
    if (m_text[i] == '\n' && i + 1 < m_text.size()) m_starts.push_back(i + 1);
}

std::string_view SourceText::line(int n) const {
  if (n < 1 || static_cast<std::size_t>(n) > m_starts.size()) return {};
  const std::size_t begin = m_starts[static_cast<std::size_t>(n - 1)];
  std::size_t end = m_text.find('\n', begin);
  if (end == std::string::npos) end = m_text.size();
  if (end > begin && m_text[end - 1] == '\r') --end;
  return std::string_view(m_text).substr(begin, end - begin);
}

bool same_run(std::string_view artifact_a, std::string_view artifact_b) {
  const auto folder = [](std::string_view path) { return std::filesystem::path(path).lexically_normal().parent_path(); };
  const std::filesystem::path a = folder(artifact_a), b = folder(artifact_b);
  const auto within = [](const std::filesystem::path& inner, const std::filesystem::path& outer) {
    return std::mismatch(outer.begin(), outer.end(), inner.begin(), inner.end()).first == outer.end();
  };
  return within(a, b) || within(b, a);
}

std::string_view to_string(ArtifactKind kind) {
  switch (kind) {
    case ArtifactKind::package: return "package";
    case ArtifactKind::model_so: return "model-so";
    case ArtifactKind::wrapper_source: return "wrapper";
    case ArtifactKind::log: return "log";
    case ArtifactKind::core_dump: return "core";
    case ArtifactKind::trace: return "trace";
    case ArtifactKind::source: return "source";
    case ArtifactKind::unknown: return "unknown";
  }
  return "unknown";
}

std::string_view to_string(LogEventKind kind) {
  switch (kind) {
    case LogEventKind::input_check_error: return "input-check-error";
    case LogEventKind::mixed_device_constants: return "mixed-device-constants";
    case LogEventKind::tensors_on_different_devices: return "tensors-on-different-devices";
    case LogEventKind::pointer_on_host: return "pointer-on-host";
    case LogEventKind::out_tensor_device: return "out-tensor-device";
    case LogEventKind::api_call_failed: return "api-call-failed";
    case LogEventKind::triton_assert: return "triton-assert";
    case LogEventKind::cuda_error: return "cuda-error";
    case LogEventKind::terminate: return "terminate";
    case LogEventKind::segfault: return "segfault";
    case LogEventKind::deprecated_api: return "deprecated-api";
    case LogEventKind::export_specialized: return "export-specialized";
    case LogEventKind::python_exception: return "python-exception";
    case LogEventKind::compile_error: return "compile-error";
    case LogEventKind::compile_command: return "compile-command";
    case LogEventKind::load_error: return "load-error";
    case LogEventKind::runtime_error: return "runtime-error";
    case LogEventKind::test_failure: return "test-failure";
    case LogEventKind::observed_shape: return "observed-shape";
  }
  return "unknown";
}

std::string ModelFacts::device() const {
  if (auto it = metadata.find("AOTI_DEVICE_KEY"); it != metadata.end() && !it->second.empty())
    return it->second;
  if (so) {
    // An AOTI model .so links the device runtime it was compiled for; a CPU model only libtorch_cpu.
    const auto needs = [&](std::string_view prefix) {
      return std::any_of(so->needed.begin(), so->needed.end(), [&](const std::string& n) { return n.starts_with(prefix); });
    };
    if (needs("libtorch_cuda.so") || needs("libcuda.so")) return "cuda";
    if (needs("libtorch_cpu.so") && !needs("libtorch_hip.so") && !needs("libtorch_xpu.so") && !needs("libamdhip64.so"))
      return "cpu";
  }
  if (wrapper) {
    // Without metadata, the constants' device is the best evidence of the compile device.
    for (const auto& constant : wrapper->constants)
      if (constant.device_type != "cpu" && !constant.device_type.empty()) return constant.device_type;
    if (wrapper->compile_cmd.find("USE_CUDA") != std::string::npos) return "cuda";
    if (!wrapper->compile_cmd.empty()) return "cpu";
  }
  return "";
}

std::string short_symbol(std::string_view symbol) {
  std::string out;
  int angle = 0, paren = 0;
  for (std::size_t i = 0; i < symbol.size(); ++i) {
    const char ch = symbol[i];
    // "operator<" and "operator()" name functions; their brackets are not nesting.
    if (symbol.substr(i).starts_with("operator")) {
      const std::size_t end = symbol.find_first_of("(", i + 8 + (i + 8 < symbol.size() && symbol[i + 8] == '(' ? 2 : 0));
      if (angle == 0 && paren == 0) out += symbol.substr(i, (end == std::string_view::npos ? symbol.size() : end) - i);
      i = (end == std::string_view::npos ? symbol.size() : end) - 1;
      continue;
    }
    if (ch == '<') ++angle;
    else if (ch == '>' && angle > 0) --angle;
    else if (ch == '(' && angle == 0) ++paren;
    else if (ch == ')' && angle == 0 && paren > 0) --paren;
    else if (angle == 0 && paren == 0) out += ch;
  }
  while (out.ends_with(" const") || out.ends_with(" ")) out.resize(out.size() - (out.ends_with(" ") ? 1 : 6));
  // Drop a return type ("void std::f" -> "std::f"), but keep "operator new".
  std::size_t space = out.rfind(' ');
  if (space != std::string::npos && out.compare(space + 1, 8, "operator") != 0 &&
      out.substr(0, space).ends_with("operator"))
    space = out.rfind(' ', space - 1);
  if (space != std::string::npos) out = out.substr(space + 1);
  return out.empty() ? std::string(symbol) : out;
}

const CoreThread* crashing_thread(const CoreFacts& core) {
  for (const auto& thread : core.threads)
    if (thread.crashed) return &thread;
  return core.threads.empty() ? nullptr : &core.threads.front();
}

CrashPhase crash_phase_of(const CoreFacts& core) {
  const CoreThread* thread = crashing_thread(core);
  if (!thread) return {};
  // The outermost call into the AOTI runtime's C API says which call the process was in.
  static constexpr std::pair<std::string_view, std::string_view> k_entry_points[] = {
      {"AOTInductorModelContainerCreate", "loading the model"},
      {"AOTInductorModelContainerDelete", "destroying the model"},
      {"AOTInductorModelContainerRun", "running the model"},
      {"AOTInductorModelContainerUpdate", "loading the model's constants"},
  };
  // Without an entry point, the runtime's own functions may say.
  static constexpr std::pair<std::string_view, std::string_view> k_markers[] = {
      {"AOTInductorModel::AOTInductorModel", "loading the model"},
      {"load_constants", "loading the model's constants"},
      {"~AOTInductorModelContainer", "destroying the model"},
      {"run_impl", "running the model"},
  };
  const auto found = [&](const StackFrame& frame, std::size_t index, std::string_view phase) {
    return CrashPhase{std::string(phase), !frame.unwound(), short_symbol(frame.symbol), index};
  };
  const auto& frames = thread->frames;
  // Names only: parameter types such as AOTIProxyExecutorOpaque* say nothing of the phase.
  for (std::size_t i = frames.size(); i-- > 0;)
    for (const auto& [marker, phase] : k_entry_points)
      if (frames[i].unwound() && short_symbol(frames[i].symbol).find(marker) != std::string::npos)
        return found(frames[i], i, phase);
  for (std::size_t i = 0; i < frames.size(); ++i)
    for (const auto& [marker, phase] : k_markers)
      if (frames[i].unwound() && short_symbol(frames[i].symbol).find(marker) != std::string::npos)
        return found(frames[i], i, phase);
  // Stack-scan frames are stale return addresses as often as real callers (a load's frames linger
  // on the stack of a later run): only a C API entry point, the outermost, suggests a phase.
  for (std::size_t i = frames.size(); i-- > 0;)
    for (const auto& [marker, phase] : k_entry_points)
      if (!frames[i].unwound() && short_symbol(frames[i].symbol).find(marker) != std::string::npos)
        return found(frames[i], i, phase);
  return {};
}

std::string crash_phase(const CoreFacts& core) {
  CrashPhase phase = crash_phase_of(core);
  return phase.from_stack_scan ? std::string() : std::move(phase.phase);
}

std::string crash_phase_clause(const CoreFacts& core) {
  const CrashPhase phase = crash_phase_of(core);
  if (phase.phase.empty()) return "";
  if (!phase.from_stack_scan) return "while " + phase.phase;
  return "probably while " + phase.phase + " (" + phase.symbol + ", frame #" + std::to_string(phase.frame) +
         ", is a return address found on the stack, not an unwound frame)";
}

}  // namespace aoti::model
