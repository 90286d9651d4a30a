// The names AOTInductor's intermediate value printer
// (AOT_INDUCTOR_DEBUG_INTERMEDIATE_VALUE_PRINTER) gives the values it prints or saves, as torch
// writes them: the labels codegen passes the print calls (torch/_inductor/codegen/debug_utils.py)
// and the file names the runtime saves mode 1's tensors under (aoti_torch_save_tensor_handle in
// torch/csrc/inductor/aoti_torch/shim_common.cpp).
#pragma once

#include <optional>
#include <string_view>

namespace aoti::torch {

// The launch prefixes codegen passes: "before_launch", "after_launch", and "aoti_model_inputs"
// for the model's inputs (printed before any kernel).
bool is_printer_phase(std::string_view text);

struct PrinterLabel {
  std::string_view phase;   // "before_launch"
  std::string_view kernel;  // "" for model inputs
  std::string_view arg;     // "buf8"
};
// Mode 2's label: "before_launch - K - arg", or "aoti_model_inputs - arg"; nullopt for any other.
std::optional<PrinterLabel> parse_printer_label(std::string_view label);

// A file mode 1 saved: "aoti_torch" + phase + "_" + kernel + "_" + arg + "_" + device + ".pt" (the
// runtime joins its folder and the name without a `/`, hence "aoti_torchbefore_launch_...").
struct SavedTensorName {
  std::string_view phase;           // "before_launch"
  std::string_view kernel_and_arg;  // "triton_poi_fused_log_mul_0_arg3_1"
  std::string_view device;          // "cuda:0" (c10::Device::str(), which holds no `_`)
};
std::optional<SavedTensorName> parse_saved_tensor_name(std::string_view file_name);

// Kernel and arg names both hold underscores, so the joined name has no one split; this is a rule
// for when the wrapper's save calls are not there to say: a generated kernel's name ends at its
// first all-digit part (Inductor numbers them: "triton_poi_fused_log_mul_0", "cpp_fused_add_3");
// else a graph input at the end ("arg3_1") is the arg; else the last part ("buf12", "weight") is.
struct KernelAndArg {
  std::string_view kernel;
  std::string_view arg;
};
KernelAndArg split_kernel_and_arg(std::string_view joined);

}  // namespace aoti::torch
