// What customop.fake-missing and customop.fake-mismatch share: the trace's fake-kernel records of
// one kind, their evidence, and the register_fake stub both suggest.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/case.hpp"
#include "model/finding.hpp"

namespace aoti::checks::fake_kernels {

// The trace's fake-kernel records named `kind` ("missing_fake_kernel", "mismatched_fake_kernel").
std::vector<const model::TraceFakeKernelEvent*> events_of_kind(const model::Case& c,
                                                               std::string_view kind);
// The trace's record of one, as evidence.
model::Evidence record_evidence(const model::TraceFakeKernelEvent& event);
// `@torch.library.register_fake("ns::op")` with a body to fill in, for `op` in any spelling.
std::string register_fake_stub(std::string_view op);

}  // namespace aoti::checks::fake_kernels
