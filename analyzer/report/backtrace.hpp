// `aoti-analyze --backtrace`: every thread of a core dump, as eu-stack and gdb print them.
#pragma once

#include <string>

#include "model/facts/core_dump.hpp"
#include "model/facts/gpu_core.hpp"

namespace aoti::report {

// Every thread's frames, the crashing thread first, as eu-stack/gdb print them:
// "#0  0x... in symbol+0x12 (module)"; stack-scanned frames are marked.
std::string render_backtrace(const model::CoreFacts& core);

// A GPU core dump's grids and faulting warps, as cuda-gdb's `info cuda kernels` and `bt` tell them:
// each warp's exception, its error PC and where its faulting lanes stopped, symbolized.
std::string render_gpu_backtrace(const model::GpuCoreFacts& core);

}  // namespace aoti::report
