// What torch's own error messages state, whichever input carries them: a log's exception, a
// trace's compilation_metrics fail_reason, a draft_export report. The sentences are torch's
// (symbolic_shapes.py, _library/custom_ops.py, the Meta fallback, export's constraint solver), so
// they live here once and both readers ask the same question.
#pragma once

#include <string_view>

#include "torch/subsystem.hpp"

namespace aoti::torch {

// The subsystem that defines an exception class, from its name as a traceback prints it:
// module-qualified ("torch._dynamo.exc.Unsupported") or bare ("Unsupported", "LoweringException"),
// for torch's and Triton's own exception classes; unknown for any other (ValueError, a package's).
// It says who raised an error whose frames the log does not show.
Subsystem subsystem_of_exception(std::string_view type);

// The subsystem whose own fixed message a text carries, for errors the log shows without frames:
// Triton's NVIDIA backend refusing the CUDA version, Inductor finding no Triton to compile with,
// c10 refusing a fake tensor's data pointer while a graph is traced. unknown for any other.
Subsystem subsystem_of_message(std::string_view text);

// Whether an FX call target is a custom op: `torch.ops.<ns>.<op>...` whose namespace is not one
// of torch's own (aten, prims, higher-order ops, the collectives, quantized, ...).
bool is_custom_op_target(std::string_view target);

// The failure a message states, as the checks name it: "data-dependent guard", "constraint
// violation", "missing fake", "concrete sizes of a symbolic tensor", "non-finite values"; "" when
// it states none of them.
std::string_view problem_in_message(std::string_view text);

// The op a dispatcher lookup did not find: "torchvision::nms" for torch/csrc/utils/
// python_dispatch.cpp's `operator torchvision::nms does not exist` (the library that registers it
// was not loaded); "" for any other text.
std::string_view unregistered_op_in(std::string_view text);

// Whether a text reports a CUDA illegal memory access, in any of the forms the stack prints it:
// c10's `CUDA error: an illegal memory access was encountered`, the runtime enum
// `cudaErrorIllegalAddress`, the driver API's `CUDA_ERROR_ILLEGAL_ADDRESS`. A kernel that ran
// faulted, whichever phase launched it (a model run, Inductor's autotuning or CUDA-graph warm-up).
bool is_illegal_memory_access(std::string_view text);

}  // namespace aoti::torch
