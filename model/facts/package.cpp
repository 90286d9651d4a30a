#include "model/facts/package.hpp"

#include <algorithm>

namespace aoti::model {

std::string ModelFacts::device() const {
  if (auto it = metadata.find("AOTI_DEVICE_KEY"); it != metadata.end() && !it->second.empty())
    return it->second;
  if (so) {
    // An AOTI model .so links the device runtime it was compiled for; a CPU model only
    // libtorch_cpu.
    const auto needs = [&](std::string_view prefix) {
      return std::any_of(so->needed.begin(), so->needed.end(),
                         [&](const std::string& n) { return n.starts_with(prefix); });
    };
    if (needs("libtorch_cuda.so") || needs("libcuda.so")) return "cuda";
    if (needs("libtorch_cpu.so") && !needs("libtorch_hip.so") && !needs("libtorch_xpu.so") &&
        !needs("libamdhip64.so"))
      return "cpu";
  }
  if (wrapper) {
    // Without metadata, the constants' device is the best evidence of the compile device.
    for (const auto& constant : wrapper->constants)
      if (constant.device_type != "cpu" && !constant.device_type.empty())
        return constant.device_type;
    if (wrapper->compile_cmd.find("USE_CUDA") != std::string::npos) return "cuda";
    if (!wrapper->compile_cmd.empty()) return "cpu";
  }
  return "";
}

}  // namespace aoti::model
