// The CUDA kernels (`__global__` functions) a .cu source defines and the host functions that launch
// each (`kernel<<<grid, block>>>(...)`, a CUDAKernelCallExpr): how a GPU core's faulting kernel
// is traced back to the op whose CUDA implementation launched it. Internal to parsers/source.
#pragma once

#include "parsers/source/libclang.hpp"

#include <vector>

#include "model/facts/source.hpp"
#include "parsers/source/clang_cursor.hpp"

namespace aoti::parsers::source {

// The kernels defined in the analyzed file, in source order, each with its launches from the
// file's functions.
std::vector<model::SourceCudaKernel> collect_cuda_kernels(CXTranslationUnit tu,
                                                          const MainFile& file);

}  // namespace aoti::parsers::source
