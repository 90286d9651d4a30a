#include "checks/customop/fake_kernel_events.hpp"

#include <fmt/format.h>

#include "checks/support/commands.hpp"

namespace aoti::checks::fake_kernels {
using namespace aoti::model;

std::vector<const TraceFakeKernelEvent*> events_of_kind(const Case& c, std::string_view kind) {
  std::vector<const TraceFakeKernelEvent*> out;
  for (const auto& trace : c.traces)
    for (const auto& event : trace.fake_kernels)
      if (event.kind == kind) out.push_back(&event);
  return out;
}

Evidence record_evidence(const TraceFakeKernelEvent& event) {
  return Evidence{Location{event.where.artifact, "", event.where.line},
                  fmt::format("{}: {}{}", event.kind, event.op,
                              event.reason.empty() ? "" : " — " + event.reason),
                  "the trace's record"};
}

std::string register_fake_stub(std::string_view op) {
  return fmt::format(
      "@torch.library.register_fake(\"{}\")\ndef _(*args, **kwargs):\n    # return empty tensors "
      "of the "
      "output's shape, computed from the inputs' sizes\n    raise NotImplementedError",
      parse_op_name(op).qualified());
}

}  // namespace aoti::checks::fake_kernels
