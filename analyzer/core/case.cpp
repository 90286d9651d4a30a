#include "analyzer/core/case.hpp"

#include <algorithm>

namespace aoti::core {

std::string Location::display() const {
  std::string out = artifact;
  if (!entry.empty()) out += ":" + entry;
  if (line > 0) out += ":" + std::to_string(line);
  return out;
}

std::string_view to_string(ArtifactKind kind) {
  switch (kind) {
    case ArtifactKind::package: return "package";
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
  }
  return "unknown";
}

std::string ModelFacts::device() const {
  if (auto it = metadata.find("AOTI_DEVICE_KEY"); it != metadata.end() && !it->second.empty())
    return it->second;
  if (wrapper) {
    // Without metadata, the constants' device is the best evidence of the compile device.
    for (const auto& constant : wrapper->constants)
      if (constant.device_type != "cpu" && !constant.device_type.empty()) return constant.device_type;
    if (wrapper->compile_cmd.find("USE_CUDA") != std::string::npos) return "cuda";
    if (!wrapper->compile_cmd.empty()) return "cpu";
  }
  return "";
}

bool Case::has_observed_failure() const {
  return std::any_of(log_events.begin(), log_events.end(), [](const LogEvent& e) {
    return e.kind != LogEventKind::deprecated_api;
  });
}

}  // namespace aoti::core
