// The NVIDIA GPU core reader: ELF e_machine 190 sections, the faulting warps, the cubin's lines.
#include <cstddef>
#include <cstdint>
#include <span>

#include "parsers/gpucore/gpu_core_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace gpucore = aoti::parsers::gpucore;
  gpucore::looks_like_gpu_core({reinterpret_cast<const char*>(data), size < 4096 ? size : 4096});
  (void)gpucore::read_gpu_core_bytes({reinterpret_cast<const std::byte*>(data), size},
                                     "gpu.nvcudmp");
  return 0;
}
