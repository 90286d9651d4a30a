#include "model/facts/gpu_core.hpp"

#include <array>
#include <string_view>

namespace aoti::model {

std::string gpu_exception_name(std::uint32_t code) {
  // CUDBGException_t (cudadebugger.h), by the names cuda-gdb prints. Codes 1-3, 11, 13, 15 and 16
  // are lane exceptions older drivers reported; CUDA 13.1 reserves them.
  static constexpr std::array<std::string_view, 37> k_names = {
      "No exception",
      "Lane Illegal Address",
      "Lane User Stack Overflow",
      "Device Hardware Stack Overflow",
      "Warp Illegal Instruction",
      "Warp Out-of-range Address",
      "Warp Misaligned Address",
      "Warp Invalid Address Space",
      "Warp Invalid PC",
      "Warp Hardware Stack Overflow",
      "Device Illegal Address",
      "Lane Misaligned Address",
      "Warp Assert",
      "Lane Syscall Error",
      "Warp Illegal Address",
      "Lane Nonmigratable Atomsys",
      "Lane Invalid Atomsys",
      "Cluster Out-of-range Address",
      "Cluster Block Not Present",
      "Warp Stack Canary",
      "Warp Tensor Memory Access Check",
      "Warp Tensor Memory Leak",
      "Warp Call Requires Newer Driver",
      "Warp Misaligned PC",
      "Warp PC Overflow",
      "Warp Misaligned Register",
      "Warp Illegal Instruction Encoding",
      "Warp Illegal Instruction Parameter",
      "Warp Out-of-range Register",
      "Warp Invalid Constant Address",
      "Warp MMU Fault",
      "Warp Barrier Arrival Mismatch",
      "Cluster Shared Memory Issue",
      "Warp API Stack Error",
      "Warp Block Not Present",
      "Warp User Stack Overflow",
      "TMA Syscall Error",
  };
  if (code < k_names.size()) return std::string(k_names[code]);
  return "exception " + std::to_string(code);
}

}  // namespace aoti::model
