// runtime.api-call-failed: `... API call failed at <hash>.wrapper.cpp, line N` tied to the wrapper
// line, the model code it implements, and the custom op when it is a proxy-executor call.
#include "checks/runtime/api_call_failed.hpp"

#include <algorithm>
#include <string_view>

#include <fmt/format.h>

#include "checks/support/commands.hpp"
#include "checks/support/crash.hpp"
#include "checks/support/failures.hpp"
#include "checks/support/finding.hpp"
#include "util/text.hpp"

namespace aoti::checks {
namespace {
using namespace aoti::model;

// c10's `CUDAGuardImpl initialized with non-CUDA DeviceType: cpu`: a CUDA device guard made from a
// tensor on another device — an op's CUDA implementation ran with CPU tensors. AOTI's wrapper calls
// ops' CUDA implementations directly through its CUDA C shim (`aoti_torch_cuda_*`), without
// dispatch choosing the kernel from the tensors' device.
Finding from_device_guard(const Case& c, const LogEvent& e) {
  Finding f = new_finding(RuntimeApiCallFailedCheck::k_info, Severity::error, 0.6);
  f.explains_failure = true;
  const std::string device = e.value.substr(e.value.rfind(' ') + 1);
  f.subject = "wrapper call device guard";
  f.title = fmt::format("A CUDA shim call of the generated wrapper got {} tensors", device);
  f.message = fmt::format(
      "The log reports `{}`: a CUDA device guard was made from a tensor on {}, so the CUDA "
      "implementation of an op ran with {} tensors. AOTI's generated wrapper calls ops' CUDA "
      "implementations directly, through its CUDA C shim (`aoti_torch_cuda_*`), for the device it "
      "compiled each op for.",
      e.text, device, device);
  f.why = fmt::format(
      "The wrapper chose the CUDA shim for an op whose tensors live on {} (a model mixing CPU and "
      "CUDA "
      "ops, or an input on the wrong device); the call fails before the op runs.",
      device);
  f.evidence.push_back(event_evidence(e, "the error the shim call raised"));
  failures::add_native_path_evidence(c, e, f.evidence);
  f.next_steps = {
      rerun_step(c, "re-run with C++ stack traces, to see the shim function and the wrapper line",
                 "TORCH_SHOW_CPP_STACKTRACES=1")};
  for (const auto& model : c.models)
    if (model.wrapper)
      f.next_steps.push_back(
          {"list the wrapper's CUDA shim calls, to find the op whose tensors are on " + device,
           model.wrapper->where.entry.empty()
               ? fmt::format("grep -n 'aoti_torch_cuda_' {}",
                             shell_quote(model.wrapper->where.artifact))
               : fmt::format("unzip -p {} {} | grep -n 'aoti_torch_cuda_'",
                             shell_quote(model.wrapper->where.artifact),
                             shell_quote(model.wrapper->where.entry))});
  return f;
}

Finding explain(const Case& c, const LogEvent& e, const ModelFacts& model, const WrapperFacts& w) {
  Finding f = new_finding(RuntimeApiCallFailedCheck::k_info, Severity::error, 0.75);
  f.explains_failure = true;
  const SourceNodesComment* nodes = nullptr;
  for (const auto& comment : w.source_node_comments)
    if (comment.line <= e.source_line && (!nodes || comment.line > nodes->line)) nodes = &comment;
  const ProxyCall* proxy = nullptr;
  for (const auto& call : w.proxy_calls)
    if (call.line == e.source_line) proxy = &call;
  const ExternNode* node = nullptr;
  if (proxy)
    for (const auto& n : model.extern_nodes)
      if (n.index == proxy->extern_node_index) node = &n;

  const std::string code = nodes && !nodes->nodes.empty()
                               ? fmt::format("{} ({})", join(nodes->nodes), join(nodes->aten_ops))
                               : "";
  f.subject = fmt::format("wrapper call {}", node ? node->target : code.empty() ? e.subject : code);
  if (node) {
    f.title = fmt::format("Custom op `{}` failed when the model ran it through the proxy executor",
                          node->target);
    f.message =
        fmt::format("The wrapper's call of `{}` (extern node {}) at line {} returned an error.",
                    node->target, proxy->extern_node_index, e.source_line);
    f.why =
        "The package runs custom ops through the dispatcher: the op library must be loaded in the "
        "process, and "
        "its schema must match what the package was compiled with (a SymInt argument passed as int "
        "fails here).";
  } else {
    // The wrapper's line the error names, as the wrapper holds it (trimmed, as every quote).
    const Evidence line = quote_wrapper(w, e.source_line, "");
    f.title = fmt::format("An AOTI runtime call failed at wrapper line {}{}", e.source_line,
                          code.empty() ? "" : fmt::format(" ({})", nodes->nodes.front()));
    f.message =
        fmt::format("`{}` returned an error{}.", line.excerpt.empty() ? e.subject : line.excerpt,
                    code.empty() ? "" : fmt::format(" while running model code {}", code));
    f.why =
        "The failing line names the operation and the buffers it was given; the error text before "
        "this line in "
        "the log says why it failed.";
  }
  f.evidence.push_back(event_evidence(e, "the failed call"));
  if (e.source_line > 0 && e.source_line <= w.source.line_count())
    f.evidence.push_back(quote_wrapper(w, e.source_line, "the wrapper line the error names"));
  if (nodes)
    f.evidence.push_back(
        quote_wrapper(w, nodes->line, "the model code this part of the wrapper implements"));
  if (node)
    f.evidence.push_back(fact(model.extern_nodes_where,
                              fmt::format("extern node {}: target {}", node->name, node->target),
                              "the custom op the call runs"));
  f.next_steps = {{"read the wrapper around the failing line",
                   show_wrapper_lines_command(w, e.source_line - 15, e.source_line + 5)},
                  rerun_step(c, "re-run with C++ stack traces and input checks",
                             "TORCH_SHOW_CPP_STACKTRACES=1 AOTI_RUNTIME_CHECK_INPUTS=1")};
  if (node)
    f.next_steps.push_back(
        {fmt::format("make sure the library defining `{}` is loaded before the model runs "
                     "(OP_LIBRARY: the path of that .so)",
                     node->target),
         "import os, torch\ntorch.ops.load_library(os.environ[\"OP_LIBRARY\"])", "python"});
  return f;
}

// What a call of the generated code does, read from the AOTI shim's naming
// (torch/csrc/inductor/aoti_torch/c/shim.h): "" when the name says nothing.
std::string call_purpose(std::string_view call) {
  if (call == "aoti_torch_empty_strided" || call.starts_with("aoti_torch_create_tensor_from_blob"))
    return "allocates a buffer";
  if (call == "aoti_torch_proxy_executor_call_function")
    return "runs a custom op through the proxy executor";
  for (const std::string_view device : {"cuda", "cpu", "mps", "xpu"})
    if (const auto prefix = fmt::format("aoti_torch_{}_", device); call.starts_with(prefix))
      return fmt::format("runs ATen's `{}` (a fallback op) on {}", call.substr(prefix.size()),
                         device == "cuda"  ? "CUDA"
                         : device == "cpu" ? "the CPU"
                                           : device);
  return "";
}

// The generated code's failed call, read from the log alone (no package or generated file among
// the inputs): the call, its line and the runtime's error before it when the log has one.
Finding from_log(const Case& c, const LogEvent& e) {
  Finding f = new_finding(RuntimeApiCallFailedCheck::k_info, Severity::error, 0.65);
  f.explains_failure = true;
  const LogEvent* cause =
      failures::runtime_cause_before(failures::events_of(c, e.where.artifact), e);
  const std::string file = module_name(e.source_file);
  // The call as the log shows it, `aoti_torch_empty_strided(3, int_array_74, ...)`: its name.
  const std::string name(util::trim(std::string_view(e.subject).substr(0, e.subject.find('('))));
  const std::string purpose = call_purpose(name);
  f.subject = "generated call " + name;
  f.title = fmt::format("The generated code's call `{}` failed at line {} of {}", name,
                        e.source_line, file);
  f.message = fmt::format(
      "`{}`{} returned an error at line {} of `{}`, the C++ Inductor generated for the model (the "
      "call is one the generated code makes, not one of the runner's).{} The generated file is "
      "not among the inputs, so the model code that line implements is not known here.",
      name, purpose.empty() ? "" : " (it " + purpose + ")", e.source_line, file,
      cause ? fmt::format(" The runtime's error before it: `{}`.", cut(cause->text, 200)) : "");
  f.why =
      purpose == "allocates a buffer"
          ? "An allocation in the generated code fails when the device has no room for the "
            "buffer (out of memory: larger inputs or batch than before, or memory held elsewhere "
            "in the process); the runtime's or allocator's message before it says which."
          : "The failing line names the operation and the buffers it was given; the error text "
            "before this line in the log says why it failed.";
  f.evidence.push_back(event_evidence(e, "the failed call of the generated code"));
  if (cause) f.evidence.push_back(event_evidence(*cause, "the runtime's error before it"));
  f.next_steps = {
      {"on the machine that ran the model (while its compile cache still holds the file), read "
       "the generated code around the failing line",
       fmt::format("sed -n '{},{}p' {}", std::max(1, e.source_line - 15), e.source_line + 5,
                   shell_word(e.source_file))},
      rerun_step(c, "re-run with C++ stack traces", "TORCH_SHOW_CPP_STACKTRACES=1")};
  if (purpose == "allocates a buffer")
    f.next_steps.push_back({"see how much device memory is in use, and by which processes",
                            "nvidia-smi --query-gpu=memory.used,memory.total --format=csv"});
  return f;
}

}  // namespace

std::vector<Finding> RuntimeApiCallFailedCheck::run(const Case& c) const {
  std::vector<Finding> out;
  for (const auto& e : c.log_events) {
    if (!failures::is_generated_code_call(e)) continue;
    const ModelFacts* model = model_of(c, e);
    if (model && model->wrapper && e.source_file.ends_with(".wrapper.cpp"))
      out.push_back(explain(c, e, *model, *model->wrapper));
    else
      out.push_back(from_log(c, e));
  }
  for (const auto& e : c.log_events)
    if (e.kind == LogEventKind::runtime_error && e.problem == "device guard")
      out.push_back(from_device_guard(c, e));
  return out;
}

}  // namespace aoti::checks
