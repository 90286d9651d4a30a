// device.load-mismatch: a package compiled for one device type, loaded or run as another.
#include "checks/device/load_mismatch.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "checks/support/crash.hpp"
#include "checks/support/failures.hpp"
#include "checks/support/finding.hpp"
#include "model/describe.hpp"

namespace aoti::checks {
namespace {
using namespace aoti::model;

// "Mixed-device constants ... Constant 'X' was compiled for a non-CPU device": when X is on the
// model's own (non-CPU) device, no constant was misplaced — the model was loaded on the CPU.
void from_mixed_constants(const Case& c, const LogEvent& e, std::vector<Finding>& out) {
  const ModelFacts* model = model_of(c, e);
  std::string device = model ? model->device() : "";
  const WrapperConstant* constant = nullptr;
  if (model && model->wrapper)
    for (const auto& k : model->wrapper->constants)
      if (k.name == e.subject || k.original_fqn == e.subject) constant = &k;
  const bool cpu_constants =
      model && model->wrapper &&
      std::any_of(model->wrapper->constants.begin(), model->wrapper->constants.end(),
                  [](const WrapperConstant& k) { return k.device_type == "cpu"; });
  // A CPU constant in a CUDA model is device.constant-placement's; this is the other way round.
  if (cpu_constants || device == "cpu") return;
  if (device.empty()) device = "a GPU";
  Finding f = new_finding(DeviceLoadMismatchCheck::k_info, Severity::error, 0.85);
  f.explains_failure = true;
  f.subject = "load device";
  f.title = fmt::format("A model compiled for {} was loaded on the CPU", device);
  f.message = fmt::format(
      "Loading failed on constant `{}`, which was compiled for {}: the model was created on the "
      "CPU (e.g. `aot_load(path, \"cpu\")`), and AOTI cannot move a {} model to another device "
      "type.",
      e.subject, device, device);
  f.why =
      "Cross-device loading (compile on CUDA, load on CPU or the reverse) is not supported; it "
      "fails at load "
      "or at the first run, often as a segfault.";
  f.evidence.push_back(event_evidence(e, "the load error"));
  if (constant) {
    const auto& w = *model->wrapper;
    const int device_line = wrapper_line_with(
        w, constant->line, fmt::format("constants_info_[{}].device_type", constant->index));
    f.evidence.push_back(
        quote_wrapper(w, device_line ? device_line : constant->line,
                      fmt::format("`{}` belongs on {}", e.subject, constant->device_type)));
  }
  for (const auto& other : c.log_events)
    if (other.kind == LogEventKind::api_call_failed && other.subject.starts_with("create_func_"))
      f.evidence.push_back(event_evidence(other, "the model container could not be created"));
  f.chain = {fmt::format("compiled for {}", device), "loaded on cpu",
             fmt::format("constant {}", e.subject), "load fails"};
  f.next_steps = {
      {fmt::format(
           "load on the device it was compiled for: `aot_load(path, \"{}\")`, or better the "
           "package API, which picks the device type itself",
           device == "a GPU" ? "cuda" : device),
       "runner = torch._inductor.aoti_load_package(\"model.pt2\")", "python"},
      {"or export and compile the model on the device type you deploy on", ""}};
  out.push_back(std::move(f));
}

// ATen's `Specified device cuda:1 does not match device of data cuda:0`, raised while the model
// loaded its constants (`load_constants` among the frames after it): the model was loaded on
// another device than the one its constants were created for.
void from_constant_device(const LogEvent& e, std::vector<Finding>& out) {
  const auto at = e.value.find("Specified device ");
  const auto mid = e.value.find(" does not match device of data ");
  if (at == std::string::npos || mid == std::string::npos || mid < at) return;
  const std::string loaded = e.value.substr(at + 17, mid - at - 17);
  std::string data = e.value.substr(mid + 31);
  data = data.substr(0, data.find_first_of(" ,;"));
  const LogFrame* constants = nullptr;
  for (const auto& frame : e.frames)
    if (frame.native && frame.function.find("load_constants") != std::string::npos)
      constants = &frame;
  if (!constants || loaded.empty() || data.empty()) return;
  Finding f = new_finding(DeviceLoadMismatchCheck::k_info, Severity::error, 0.8);
  f.explains_failure = true;
  f.subject = "load device index";
  f.title =
      fmt::format("The model was loaded on {}, but its constants were made for {}", loaded, data);
  f.message = fmt::format(
      "While the model loaded its constants (`{}`), the runtime created a tensor on {} from data "
      "that lives on {}: `{}`.",
      cut(constants->function, 120), loaded, data, e.value);
  f.why = fmt::format(
      "The model's constants are tied to the device it was compiled on ({}); loading it on another "
      "device ({}) makes the runtime wrap data of one device as a tensor of the other. AOTI "
      "versions "
      "that create the constants with the compile-time device index fail this way; a newer torch "
      "creates them on the device the model is loaded on.",
      data, loaded);
  f.evidence.push_back(event_evidence(e, "the runtime's error"));
  if (!constants->text.empty())
    f.evidence.push_back(failures::line_evidence(e, constants->log_line, constants->text,
                                                 "the model was loading its constants"));
  f.chain = {fmt::format("compiled on {}", data), fmt::format("loaded on {}", loaded),
             "load_constants", "load fails"};
  f.next_steps = {
      {fmt::format("load the model on the device it was compiled on ({}), or re-compile it on {}",
                   data, loaded),
       ""},
      {"see the installed torch version; newer versions place the constants on the load device",
       "python -c \"import torch; print(torch.__version__)\""}};
  out.push_back(std::move(f));
}

// ATen's `The specified pointer resides on host memory and is not registered with any CUDA
// device.`: raised when a CUDA tensor is made from existing memory (from_blob) that is the host's.
// The AOTI runtime makes tensors from memory for the model's constants as it loads them: constants
// in host memory wrapped as CUDA tensors are a CPU-compiled model loaded for CUDA.
void from_host_blob(const Case& c, const LogEvent& e, std::vector<Finding>& out) {
  const ModelFacts* model = model_of(c, e);
  if (model && model->device() == "cuda") return;  // a CUDA model's constants are on the device
  Finding f = new_finding(DeviceLoadMismatchCheck::k_info, Severity::error, 0.7);
  f.explains_failure = true;
  f.subject = "load device host blob";
  f.title =
      "A CUDA tensor was made from host memory: a model whose constants live on the host was "
      "loaded for CUDA";
  f.message = fmt::format(
      "The log reports `{}`: a tensor meant for CUDA was created over memory that belongs to the "
      "host. The AOTI runtime creates tensors over existing memory when it loads the model's "
      "constants{}.",
      e.text, model && model->device() == "cpu" ? ", and this package was compiled for cpu" : "");
  f.why =
      "A model compiled for the CPU keeps its constants in host memory; loading it on a CUDA "
      "device (e.g. "
      "`aot_load(path, \"cuda\")`) makes the runtime wrap them as CUDA tensors, which fails here "
      "or crashes "
      "later. Cross-device loading is not supported: compile the model on the device it will run "
      "on.";
  f.evidence.push_back(event_evidence(e, "the runtime's error"));
  if (model && !model->device().empty())
    f.evidence.push_back(fact(model->metadata_where,
                              fmt::format("AOTI_DEVICE_KEY = {}", model->device()),
                              "the device the package was compiled for"));
  f.chain = {"constants in host memory", "loaded for cuda", "from_blob refuses", "load fails"};
  f.next_steps = {
      {"export and compile the model on the device it will run on, then load the package (it "
       "records its "
       "device)",
       "runner = torch._inductor.aoti_load_package(\"model.pt2\")", "python"}};
  out.push_back(std::move(f));
}

// A CUDA package whose model .so crashed in a process that never loaded the CUDA driver: it was
// loaded by a CPU-only runner.
void from_crash(const Case& c, const CoreFacts& core, std::vector<Finding>& out) {
  const CoreThread* thread = crashing_thread(core);
  if (!thread || mapped(core, "libcuda.so")) return;
  for (std::size_t i = 0; i < thread->frames.size(); ++i) {
    const auto& frame = thread->frames[i];
    if (frame.package.empty() || !frame.unwound()) continue;
    const auto model = std::find_if(c.models.begin(), c.models.end(), [&](const ModelFacts& m) {
      return m.package == frame.package && m.device() == "cuda";
    });
    if (model == c.models.end()) continue;
    Finding f = new_finding(DeviceLoadMismatchCheck::k_info, Severity::error, 0.8);
    f.explains_failure = true;
    f.subject = "load device crash";
    const std::string word = artifact_word(*model);
    f.title = fmt::format("A CUDA {} ran in a process without the CUDA driver", word);
    f.message = fmt::format(
        "The model .so {}{} (compiled for cuda) crashed with {} in `{}`, and the process never "
        "mapped libcuda: the {} was loaded as if it were compiled for the CPU.",
        word == "package" ? "of " : "", frame.package, core.signal_name,
        frame.symbol.substr(0, 100), word);
    f.why =
        "Cross-device loading is not supported: a CUDA package needs the CUDA runtime and device "
        "buffers.";
    f.evidence.push_back(
        Evidence{core_location(core), frame_text(frame, i), "the crashing frame in the model .so"});
    if (auto evidence = device_evidence(*model)) f.evidence.push_back(std::move(*evidence));
    f.next_steps = {{"load it with the package API on a CUDA machine",
                     "runner = torch._inductor.aoti_load_package(\"model.pt2\")", "python"}};
    out.push_back(std::move(f));
    return;
  }
}

}  // namespace

std::vector<Finding> DeviceLoadMismatchCheck::run(const Case& c) const {
  std::vector<Finding> out;
  for (const auto& e : c.log_events) {
    if (e.kind != LogEventKind::out_tensor_device) continue;
    const ModelFacts* model = model_of(c, e);
    Finding f = new_finding(k_info, Severity::error, 0.75);
    f.explains_failure = true;
    f.subject = "load device";
    f.title = "The model was loaded on another device type than it was compiled for";
    f.message = fmt::format(
        "The run failed with `{}`: the output buffers live on one device type and the "
        "caller expects another.",
        e.text);
    f.why =
        "Cross-device loading (compile on CUDA, load on CPU or the reverse) is not supported; it "
        "fails "
        "at load or at the first run, often as a segfault.";
    f.evidence.push_back(event_evidence(e, "the runtime error"));
    if (model)
      if (auto evidence = device_evidence(*model)) f.evidence.push_back(std::move(*evidence));
    const std::string device =
        model && !model->device().empty() ? model->device() : "<compile device>";
    f.next_steps = {{fmt::format("load through the package API, which picks the compiled device "
                                 "type; only the index (\"{}:N\") "
                                 "may change",
                                 device),
                     "runner = torch._inductor.aoti_load_package(\"model.pt2\")", "python"},
                    {"or re-export and re-package the model on the device type you deploy on", ""}};
    out.push_back(std::move(f));
  }
  for (const auto& e : c.log_events)
    if (e.kind == LogEventKind::mixed_device_constants) from_mixed_constants(c, e, out);
  for (const auto& e : c.log_events)
    if (e.kind == LogEventKind::runtime_error &&
        e.value.find(" does not match device of data ") != std::string::npos)
      from_constant_device(e, out);
  for (const auto& e : c.log_events)
    if (e.kind == LogEventKind::pointer_on_host && e.problem == "blob on host")
      from_host_blob(c, e, out);
  for (const auto& core : c.cores) from_crash(c, core, out);
  return out;
}

}  // namespace aoti::checks
