#include "model/facts/log.hpp"

namespace aoti::model {

std::string_view to_string(LogEventKind kind) {
  switch (kind) {
    case LogEventKind::input_check_error:
      return "input-check-error";
    case LogEventKind::mixed_device_constants:
      return "mixed-device-constants";
    case LogEventKind::tensors_on_different_devices:
      return "tensors-on-different-devices";
    case LogEventKind::pointer_on_host:
      return "pointer-on-host";
    case LogEventKind::out_tensor_device:
      return "out-tensor-device";
    case LogEventKind::api_call_failed:
      return "api-call-failed";
    case LogEventKind::triton_assert:
      return "triton-assert";
    case LogEventKind::cuda_error:
      return "cuda-error";
    case LogEventKind::terminate:
      return "terminate";
    case LogEventKind::segfault:
      return "segfault";
    case LogEventKind::deprecated_api:
      return "deprecated-api";
    case LogEventKind::export_specialized:
      return "export-specialized";
    case LogEventKind::python_exception:
      return "python-exception";
    case LogEventKind::compile_error:
      return "compile-error";
    case LogEventKind::compile_command:
      return "compile-command";
    case LogEventKind::load_error:
      return "load-error";
    case LogEventKind::runtime_error:
      return "runtime-error";
    case LogEventKind::test_failure:
      return "test-failure";
    case LogEventKind::loaded_module:
      return "loaded-module";
    case LogEventKind::printed_nonfinite:
      return "printed-nonfinite";
    case LogEventKind::program_run:
      return "program-run";
    case LogEventKind::observed_shape:
      return "observed-shape";
  }
  return "unknown";
}

}  // namespace aoti::model

namespace aoti::model {

std::string_view to_string(ExceptionLink link) {
  switch (link) {
    case ExceptionLink::none:
      return "none";
    case ExceptionLink::direct_cause:
      return "direct cause";
    case ExceptionLink::during_handling:
      return "during handling";
    case ExceptionLink::inside_message:
      return "inside the message of";
  }
  return "none";
}

}  // namespace aoti::model
