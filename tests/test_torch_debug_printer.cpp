// The intermediate value printer's labels and file names, as torch writes them.
#include <doctest/doctest.h>

#include "torch/debug_printer.hpp"

using aoti::torch::parse_printer_label;
using aoti::torch::parse_saved_tensor_name;
using aoti::torch::split_kernel_and_arg;

TEST_CASE("mode 2's labels") {
  const auto launch = parse_printer_label("before_launch - triton_per_fused_sum_2 - buf8");
  REQUIRE(launch);
  CHECK(launch->phase == "before_launch");
  CHECK(launch->kernel == "triton_per_fused_sum_2");
  CHECK(launch->arg == "buf8");
  const auto input = parse_printer_label("aoti_model_inputs - arg9_1");
  REQUIRE(input);
  CHECK(input->kernel.empty());
  CHECK(input->arg == "arg9_1");
  CHECK(parse_printer_label("after_launch - K - s0 - 1")->arg == "s0 - 1");
  CHECK_FALSE(parse_printer_label("during_launch - K - buf0"));
  CHECK_FALSE(parse_printer_label("before_launch - K"));
  CHECK_FALSE(parse_printer_label("before_launch -  - buf0"));
  CHECK_FALSE(parse_printer_label(""));
}

TEST_CASE("mode 1's file names") {
  const auto name =
      parse_saved_tensor_name("aoti_torchafter_launch_triton_poi_fused_log_mul_0_buf0_cuda:0.pt");
  REQUIRE(name);
  CHECK(name->phase == "after_launch");
  CHECK(name->kernel_and_arg == "triton_poi_fused_log_mul_0_buf0");
  CHECK(name->device == "cuda:0");
  CHECK(parse_saved_tensor_name("aoti_torchbefore_launch_k_x_cpu.pt")->device == "cpu");
  CHECK_FALSE(parse_saved_tensor_name("weights.pt"));
  CHECK_FALSE(parse_saved_tensor_name("aoti_torchbefore_launch_buf0_cpu.pt"));  // no kernel
  CHECK_FALSE(parse_saved_tensor_name("aoti_torchaoti_model_inputs_k_x_cpu.pt"));
  CHECK_FALSE(parse_saved_tensor_name("aoti_torchbefore_launch_k_x_cpu.pt2"));
}

TEST_CASE("kernel and arg split by rule when no wrapper says") {
  const auto split = [](std::string_view joined) {
    const auto parts = split_kernel_and_arg(joined);
    return std::string(parts.kernel) + " | " + std::string(parts.arg);
  };
  CHECK(split("triton_poi_fused_log_mul_0_arg3_1") == "triton_poi_fused_log_mul_0 | arg3_1");
  CHECK(split("triton_per_fused_addmm_relu_sum_1_proj_bias") ==
        "triton_per_fused_addmm_relu_sum_1 | proj_bias");
  CHECK(split("triton_per_fused__log_softmax_3__tensor_constant0") ==
        "triton_per_fused__log_softmax_3 | _tensor_constant0");
  CHECK(split("cpp_fused_add_0_buf2") == "cpp_fused_add_0 | buf2");
  CHECK(split("aoti_torch_cuda_mm_out_buf1") == "aoti_torch_cuda_mm_out | buf1");
  CHECK(split("aoti_torch_cuda_addmm_out_arg2_1") == "aoti_torch_cuda_addmm_out | arg2_1");
  // A fallback op's constant argument: the rule cannot know, it takes the last part.
  CHECK(split("aoti_torch_cuda_mm_out_proj_weight") == "aoti_torch_cuda_mm_out_proj | weight");
  CHECK(split("k_x") == "k | x");
}
