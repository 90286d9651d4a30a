// Model facts in words, one spelling for every finding and every report format: an input's
// contract and a stack frame read the same wherever they appear.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "model/facts/core_dump.hpp"
#include "model/facts/gpu_core.hpp"
#include "model/facts/wrapper.hpp"

namespace aoti::model {

// What a wrapper's input checks require of one dim.
struct DimBounds {
  std::optional<std::int64_t> min, max, equal;
};
DimBounds dim_bounds(const WrapperFacts& w, int input_index, int dim);
// "in [2, 64]", "= 16", ">= 2", "<= 64"; "" when the wrapper checks nothing on the dim.
std::string dim_condition(const DimBounds& bounds);
std::string dim_contract(const WrapperFacts& w, int input_index, int dim);

// A dtype check as people and the wrapper both know it: "int64 (at::kLong)", "float32" for a bare
// code, "dtype 99" for a code torch does not have.
std::string dtype_text(const InputCheck& check);
// A device-type check: "cuda", "privateuseone", "device type 99".
std::string device_text(const InputCheck& check);

// Every condition on one input: "dim 0 in [2, 64], dim 1 = 16, int64 (at::kLong), on cuda"; "" when
// the wrapper checks nothing. `annotated` adds what export said of each dim: its Dim name and the
// range the user exported, "dim 0 (batch) in [2, 64] (exported min=1, max=64: minimum 1 raised to
// 2)".
std::string input_contract(const WrapperFacts& w, int input_index, bool annotated = false);

// One frame of a thread, "#3 torch::aot_inductor::parse_device_str in the model .so" (the symbol
// shortened, at most 160 characters; its address when it has no name).
std::string frame_text(const StackFrame& frame, std::size_t index);

// A GPU core's facts in words, the same in the finding, the report's GPU fault block and
// --backtrace.
std::string dim3_text(const Dim3& d);  // "(0,1,0)"
// "triton_poi_fused_embedding_0+0x560 (cwq4….py:33)"; the pc when no kernel is known.
std::string gpu_location_text(const GpuCodeLocation& at);
// The kernel as people read it: demangled ("scatter_rows_kernel(float const*, long*)"), else the
// symbol; "" when no kernel holds the address.
std::string gpu_kernel_name(const GpuCodeLocation& at);
// "block (0,1,0) thread (96,0,0) (warp 2 on SM 126 of device 0, grid 2442, 32 faulting lane(s))",
// or for a fault only the SM table kept, "SM 131 of device 0 (its faulting warps had exited)".
std::string gpu_warp_text(const GpuWarp& warp);

}  // namespace aoti::model
