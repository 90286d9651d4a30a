// cuda.illegal-memory-access: IMA triage — the kernels that could have done it and the next
// commands.
#include "checks/cuda/illegal_memory_access.hpp"

#include <fmt/format.h>

#include "checks/support/commands.hpp"
#include "checks/support/finding.hpp"

namespace aoti::checks {
namespace {
using namespace aoti::model;

bool is_illegal_access(const LogEvent& e) {
  return e.kind == LogEventKind::cuda_error &&
         (e.value.find("illegal memory access") != std::string::npos ||
          e.value.find("cudaErrorIllegalAddress") != std::string::npos ||
          e.text.find("illegal memory access") != std::string::npos);
}

}  // namespace

std::vector<Finding> CudaIllegalMemoryAccessCheck::run(const Case& c) const {
  std::vector<Finding> out;
  for (const auto& e : c.log_events) {
    if (!is_illegal_access(e)) continue;
    Finding f = new_finding(k_info, Severity::error, 0.7);
    f.explains_failure = true;
    f.subject = "illegal memory access";
    f.title = "A kernel accessed memory outside its tensors (CUDA illegal memory access)";
    f.message =
        "CUDA reported an illegal memory access. Errors are reported asynchronously, so the call "
        "that "
        "raised it is not necessarily the kernel that did it.";
    f.why =
        "After an IMA the CUDA context is unusable; the cause is usually an input outside the "
        "compiled "
        "contract (a dynamic size the kernels do not handle, an empty tensor) or a custom op whose "
        "fake "
        "kernel lied about its output shape.";
    f.evidence.push_back(event_evidence(e, "the CUDA error"));
    // In a test run, the test that failed is where to reproduce it.
    for (const auto& other : c.log_events)
      if (other.kind == LogEventKind::test_failure && other.where.artifact == e.where.artifact) {
        f.message += fmt::format(" The test that failed is `{}`.", other.subject);
        f.evidence.push_back(event_evidence(other, "the test that failed"));
        break;
      }
    std::vector<std::string> kernels;
    if (const ModelFacts* model = model_of(c, e); model && model->wrapper) {
      for (const auto& call : model->wrapper->kernel_calls) kernels.push_back(call.kernel);
      if (!kernels.empty())
        f.evidence.push_back(Evidence{model->wrapper->where, join(kernels),
                                      "the kernels the model launches, in order: the suspects"});
    }
    f.next_steps = {rerun_step(c, "validate every input against the compiled guards",
                               "AOTI_RUNTIME_CHECK_INPUTS=1"),
                    rerun_step(c, "make the failure reproducible and synchronous",
                               "PYTORCH_NO_CUDA_MEMORY_CACHING=1 CUDA_LAUNCH_BLOCKING=1"),
                    repackage_step(c,
                                   "re-package printing each kernel as it launches; the last one "
                                   "printed before the error is the suspect",
                                   "AOT_INDUCTOR_DEBUG_INTERMEDIATE_VALUE_PRINTER=3")};
    if (!kernels.empty())
      f.next_steps.push_back(
          repackage_step(c, "then re-package printing one suspect kernel's inputs",
                         fmt::format("AOT_INDUCTOR_FILTERED_KERNELS_TO_PRINT=\"{}\" "
                                     "AOT_INDUCTOR_DEBUG_INTERMEDIATE_VALUE_PRINTER=2",
                                     kernels.back())));
    out.push_back(std::move(f));
    break;  // one triage per case: the advice does not change with the count
  }
  return out;
}

}  // namespace aoti::checks
