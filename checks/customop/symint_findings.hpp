// What customop.meta-not-symint (C++ meta kernels, patterns C*) and customop.fake-not-symint
// (Python fakes, patterns P*) share: one finding per kernel function with SymInt-unaware patterns,
// ranked by whether the package calls the op and whether a specialization in the logs or the trace
// points at it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checks/check.hpp"
#include "model/case.hpp"
#include "model/finding.hpp"

namespace aoti::checks::symint {

// Which patterns a check reports, and what it calls the kernels that hold them.
struct KernelFamily {
  char pattern_prefix;     // 'C' (C1–C8) or 'P' (P1–P8)
  std::string_view label;  // "Meta kernel": the finding title's subject
};

// One finding per (function, op) of each source in the case whose patterns belong to `family`.
std::vector<model::Finding> kernel_findings(const model::Case& c, const CheckInfo& check,
                                            const KernelFamily& family);

// "heldout_cpp::scale_rows.default" and "torch.ops.heldout_cpp.scale_rows" both name
// "heldout_cpp::scale_rows".
std::string op_key(std::string op);
// "ns::op" → "torch.ops.ns.op", as a Python call of the op is spelled; nullopt for an op without a
// namespace (a fake registered on a name the source never qualifies), which no torch.ops call
// names.
std::optional<std::string> torch_ops_call(const std::string& op);

}  // namespace aoti::checks::symint
