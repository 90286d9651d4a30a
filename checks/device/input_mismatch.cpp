// device.input-mismatch: an input on another device than the one the package was compiled for.
#include "checks/device/input_mismatch.hpp"

#include <optional>

#include <fmt/format.h>

#include "checks/support/commands.hpp"
#include "checks/support/contract.hpp"
#include "checks/support/crash.hpp"
#include "checks/support/failures.hpp"
#include "checks/support/finding.hpp"
#include "util/demangle.hpp"

namespace aoti::checks {
namespace {
using namespace aoti::model;

void add_package_device(Finding& f, const ModelFacts& model) {
  if (auto evidence = device_evidence(model)) f.evidence.push_back(std::move(*evidence));
}

Finding from_input_check(const Case& c, const LogEvent& e) {
  Finding f = new_finding(DeviceInputMismatchCheck::k_info, Severity::error, 0.95);
  f.explains_failure = true;
  const ModelFacts* model = model_of(c, e);
  const std::string expected = e.value.empty() ? e.expected : e.value;
  const std::string actual = device_name_of_code(e.actual);
  std::string input = fmt::format("input {}", e.input_index);
  if (model && model->wrapper && e.input_index >= 0 &&
      static_cast<std::size_t>(e.input_index) < model->wrapper->inputs.size())
    input = fmt::format(
        "input {} {}", e.input_index,
        input_display(*model->wrapper,
                      model->wrapper->inputs[static_cast<std::size_t>(e.input_index)].name));
  f.subject = fmt::format("input {} device", e.input_index);
  f.title = fmt::format("{} is on {} but the package was compiled for {}", input, actual, expected);
  f.message = fmt::format(
      "The AOTI input check rejected {}: the model expects a {} tensor and was given a {} tensor.",
      input, expected, actual);
  f.why =
      "AOTI kernels dereference input pointers directly: a tensor on the wrong device is an error "
      "with input checks on, and a segfault, an illegal memory access or garbage without them.";
  f.evidence.push_back(event_evidence(e, "the runtime input check that fired"));
  if (model) add_package_device(f, *model);
  const WrapperFacts* w = model && model->wrapper ? &*model->wrapper : nullptr;
  f.next_steps = {
      input_step(w, e.input_index,
                 "move the input to the package's device before calling the model",
                 fmt::format("{{0}} = {{0}}.to(\"{}\")", expected)),
      input_step(w, e.input_index,
                 "find where the caller builds the tensor: print its device just before the call",
                 "print({0}.device)")};
  return f;
}

Finding from_runtime_error(const Case& c, const LogEvent& e) {
  Finding f = new_finding(DeviceInputMismatchCheck::k_info, Severity::error, 0.8);
  f.explains_failure = true;
  const ModelFacts* model = model_of(c, e);
  f.subject = "runtime device error";
  f.title = e.kind == LogEventKind::pointer_on_host
                ? "A host pointer reached a CUDA kernel"
                : fmt::format("Tensors on different devices met in one operation ({})", e.value);
  f.message =
      "The run mixed devices: an input (or a constant) is on another device than the kernels "
      "that read it.";
  f.why =
      "The model runs all its kernels on the device it was compiled for; every input must be there "
      "too.";
  f.evidence.push_back(event_evidence(e, "the runtime error"));
  failures::add_native_path_evidence(c, e, f.evidence);
  // The traceback that ends in this error: the user's line that ran the op.
  for (const auto& other : c.log_events)
    if (other.kind == LogEventKind::python_exception && other.where.artifact == e.where.artifact &&
        other.where.line == e.where.line) {
      failures::add_user_frame_evidence(other, f.evidence);
      break;
    }
  // The rest of the sentence, where the log broke it over lines.
  for (std::size_t i = 0; i < e.detail.size(); ++i)
    if (const auto start = e.detail[i].find_first_not_of(' '); start != std::string::npos)
      f.evidence.push_back(failures::line_evidence(e, e.where.line + 1 + static_cast<int>(i),
                                                   e.detail[i].substr(start),
                                                   "the error, continued"));
  if (model) add_package_device(f, *model);
  f.next_steps = {
      rerun_step(c, "re-run with input checks on: they name the input on the wrong device",
                 "AOTI_RUNTIME_CHECK_INPUTS=1"),
      {"move every input to the package's device before the call", ""}};
  return f;
}

// A CPU package's kernel faulting on an address the CUDA driver reserved: it was handed a
// device pointer, i.e. a CUDA input.
std::optional<Finding> from_crash(const Case& c, const CoreFacts& core) {
  const CoreThread* thread = crashing_thread(core);
  if (!thread || core.fault_kind != "device") return std::nullopt;
  const StackFrame* model_frame = nullptr;
  std::size_t index = 0;
  for (std::size_t i = 0; i < thread->frames.size() && !model_frame; ++i)
    if (thread->frames[i].unwound() && !thread->frames[i].package.empty())
      model_frame = &thread->frames[i], index = i;
  if (!model_frame) return std::nullopt;
  const ModelFacts* model = nullptr;
  for (const auto& m : c.models)
    if (m.package == model_frame->package && m.device() == "cpu") model = &m;
  if (!model) return std::nullopt;

  Finding f = new_finding(DeviceInputMismatchCheck::k_info, Severity::error, 0.9);
  f.explains_failure = true;
  f.subject = "input device crash";
  const std::string kernel =
      model_frame->symbol.empty() ? "a kernel" : util::short_symbol(model_frame->symbol);
  std::string inputs;
  if (model->wrapper)
    for (const auto& input : model->wrapper->inputs)
      inputs += (inputs.empty() ? "" : ", ") + input.name;
  const std::string word = artifact_word(*model);
  f.title = fmt::format("A CPU kernel of a cpu {} read a CUDA device pointer ({} in `{}`)", word,
                        core.signal_name, kernel);
  f.message = fmt::format(
      "The {} was compiled for cpu, but its kernel `{}` faulted at 0x{:x}, {}. The model was run "
      "with an input "
      "on a CUDA device{}, and the input checks were off, so nothing stopped it.",
      word, kernel, core.fault_address.value_or(0), core.fault_region,
      inputs.empty() ? "" : fmt::format(" (inputs: {})", inputs));
  f.why =
      "A CPU kernel dereferences its input pointers directly; a device pointer is not host memory, "
      "so the "
      "first read faults (or, worse, reads garbage where host memory happens to be mapped).";
  f.evidence.push_back(Evidence{core_location(core),
                                fmt::format("{} ({}) at 0x{:x}", core.signal_name,
                                            core.signal_code_name, core.fault_address.value_or(0)),
                                "the fault: " + core.fault_region});
  const std::string frames =
      frames_excerpt(*thread, 6, 0, [&](std::size_t i) { return i <= index + 3; });
  f.evidence.push_back(Evidence{
      core_location(core), frames,
      fmt::format("the crashing thread {}: frame #{} is in the model .so", thread->tid, index)});
  add_package_device(f, *model);
  if (const MappedModule* cuda = mapped(core, "libcuda.so"))
    f.evidence.push_back(Evidence{core_location(core), cuda->path,
                                  "the process had CUDA loaded: CUDA tensors existed"});
  f.chain = {"input tensor on cuda", "package compiled for cpu", kernel.substr(0, 60),
             fmt::format("{} at 0x{:x}", core.signal_name, core.fault_address.value_or(0))};
  // The core does not say which input was on the device; with one input, it was that one.
  const std::string move_what =
      "move the inputs to the CPU before calling the model (or package the model for CUDA)";
  const bool one_input = model->wrapper && model->wrapper->inputs.size() == 1;
  f.next_steps = {
      one_input
          ? input_step(&*model->wrapper, 0, move_what, "{0} = {0}.to(\"cpu\")")
          : NextStep{move_what + " (`x` is each tensor input)", "x = x.to(\"cpu\")", "python"},
      rerun_step(c,
                 "re-run with the input checks on: they name the input on the wrong device instead "
                 "of crashing",
                 "AOTI_RUNTIME_CHECK_INPUTS=1")};
  return f;
}
}  // namespace

std::vector<Finding> DeviceInputMismatchCheck::run(const Case& c) const {
  std::vector<Finding> out;
  for (const auto& e : c.log_events) {
    if (e.kind == LogEventKind::input_check_error && e.problem == "unmatched device type")
      out.push_back(from_input_check(c, e));
    else if (e.kind == LogEventKind::tensors_on_different_devices ||
             (e.kind == LogEventKind::pointer_on_host &&
              e.problem != "blob on host"))  // from_blob's: device.load-mismatch
      out.push_back(from_runtime_error(c, e));
  }
  for (const auto& core : c.cores)
    if (auto f = from_crash(c, core)) out.push_back(std::move(*f));
  return out;
}

}  // namespace aoti::checks
