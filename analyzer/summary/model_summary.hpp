// One model as every report and every scan record presents it: plain data, computed once (by
// report::summarize) so that the formats cannot disagree, and read back from scan records.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace aoti::summary {

struct InputSummary {
  std::string name;       // "arg3_1"
  std::string user_name;  // "ids": the forward argument, when a trace names it
  std::string contract;  // "dim 0 (b) in [2, 64], int64 (at::kLong), on cuda; checks only with ..."
};

struct ModelSummary {
  std::string name;
  std::string package;  // the package path, or the wrapper's artifact for a standalone wrapper
  std::string device;
  std::string compute_capability;  // as in the metadata: "90"
  std::vector<InputSummary> inputs;
  bool input_checks_need_env = false;
  std::optional<std::size_t> kernel_count;    // empty without a wrapper
  std::string kernel_kind = "Triton kernel";  // "C++ kernel" for a CPU package
  std::vector<std::string> extern_ops;        // custom ops run through the proxy executor
  std::string compiler;                       // from .comment, else the link / compile command
};

}  // namespace aoti::summary
