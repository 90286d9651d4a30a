// The wrapper parser on variant spellings and on hostile text: binary data, truncation, garbage,
// lost quotes, a 50 MB line, and logs that quote AOTI names.
#include <doctest/doctest.h>

#include <chrono>
#include <random>
#include <string>

#include "tests/parsers_wrapper_support.hpp"

using namespace aoti::test::wrapper;

TEST_CASE("older and variant spellings of the same facts") {
  const std::string text =
      "class AOTInductorModel;\n"
      "    inputs_info_[0].name = \"arg0_1\";\n"
      "    constants_info_[0].name = \"w\";\n"
      "    constants_info_[0].dtype = static_cast<int32_t>(cached_torch_dtype_bfloat16);\n"
      "    constants_info_[0].device_type = static_cast<int32_t>(cached_torch_device_type_cuda);\n"
      "    constants_info_[0].shape = {};\n"
      "    in_spec_ = \"[1, {\\\"type\\\": null}]\";\n"
      "    if (arg0_1_size[0] > 1024L) {\n"
      "    if (2 > arg0_1_size[0]) {\n"
      "    static constexpr int64_t s0 = arg0_1_stride[1];\n"
      "    AtenTensorHandle tensor_args_var_0[] = {arg0_1, buf0};\n"
      "    aoti_torch_proxy_executor_call_function(proxy_executor, 3, 0, int_args_var_1, 2, "
      "tensor_args_var_0);\n"
      "    async_compile.triton('triton_k', '''\n"
      "    triton_meta={'signature': {0: '*fp32', 1: 'i32'}, 'device': 0},\n"
      "    def triton_k(in_ptr0, ks0, XBLOCK : tl.constexpr):\n"
      "        tmp0 = tl.load(in_ptr0 + (0))\n"
      "        tl.device_assert((0 <= tmp1) & (tmp1 < ks0), \"index out of bounds: 0 <= tmp1 < "
      "ks0\")\n"
      "    ''')\n";
  const auto parsed = parse_wrapper(text, k_where);
  REQUIRE(parsed.has_value());
  REQUIRE(parsed->constants.size() == 1);
  CHECK(parsed->constants[0].dtype == "bfloat16");
  CHECK(parsed->constants[0].device_type == "cuda");
  CHECK(parsed->constants[0].shape.empty());
  CHECK(parsed->in_spec == "[1, {\"type\": null}]");
  const auto* max0 = find_check(*parsed, InputCheckKind::dim_max, 0);
  REQUIRE(max0);
  CHECK(max0->value == 1024);
  const auto* min0 = find_check(*parsed, InputCheckKind::dim_min, 0);
  REQUIRE(min0);
  CHECK(min0->value == 2);
  CHECK(min0->input_index == 0);
  REQUIRE(parsed->bindings.size() == 1);
  CHECK(parsed->bindings[0].is_stride);
  REQUIRE(parsed->proxy_calls.size() == 1);
  CHECK(parsed->proxy_calls[0].extern_node_index == 3);
  CHECK(parsed->proxy_calls[0].tensor_args == std::vector<std::string>{"arg0_1", "buf0"});
  REQUIRE(parsed->kernels.size() == 1);
  const auto& kernel = parsed->kernels[0];
  CHECK(kernel.signature.at("in_ptr0") == "*fp32");
  CHECK(kernel.signature.at("ks0") == "i32");
  REQUIRE(kernel.asserts.size() == 1);
  CHECK(kernel.asserts[0].bound == "ks0");
  CHECK(kernel.asserts[0].index_var == "tmp1");
  REQUIRE(kernel.loads.size() == 1);
  CHECK(kernel.loads[0].offset == "0");
}

TEST_CASE("not a wrapper: binary, empty, unrelated text") {
  std::string binary(4096, '\0');
  std::mt19937 random(7);
  for (auto& byte : binary) byte = static_cast<char>(random() % 256);
  binary[100] = '\0';
  const auto from_binary = parse_wrapper(binary, k_where);
  REQUIRE_FALSE(from_binary.has_value());
  CHECK(from_binary.error().message.starts_with("not a wrapper: binary data at byte "));
  CHECK_FALSE(looks_like_wrapper(binary));

  const auto from_empty = parse_wrapper("", k_where);
  REQUIRE_FALSE(from_empty.has_value());

  const auto from_log =
      parse_wrapper("Traceback (most recent call last):\n  RuntimeError: boom\n", k_where);
  REQUIRE_FALSE(from_log.has_value());
  CHECK(contains(from_log.error().message, "AOTInductorModel"));
  CHECK_FALSE(looks_like_wrapper("Traceback (most recent call last):\n"));
}

TEST_CASE("a wrapper truncated anywhere yields the facts before the cut") {
  const std::string text = wrapper_text("embedding-device-assert");
  const WrapperFacts whole = parse_case("embedding-device-assert");
  for (const std::size_t cut :
       {std::size_t{2500}, text.size() / 3, text.size() / 2, text.find("tl.device_assert") + 20,
        text.find("call_triton_poi_fused_embedding_0(arg3_1") + 45, text.size() - 3000,
        text.size() - 1}) {
    CAPTURE(cut);
    const auto parsed = parse_wrapper(std::string_view(text).substr(0, cut), k_where);
    REQUIRE(parsed.has_value());
    CHECK(parsed->kernel_calls.size() <= whole.kernel_calls.size());
    CHECK(parsed->input_checks.size() <= whole.input_checks.size());
    for (const auto& call : parsed->kernel_calls) CHECK(call.args.size() >= 2);
  }
  // Cut in the middle of the first launch: the launch is dropped, the kernel above it kept.
  const std::size_t mid_call = text.find("call_triton_poi_fused_embedding_0(arg3_1") + 45;
  const auto parsed = parse_wrapper(std::string_view(text).substr(0, mid_call), k_where);
  REQUIRE(parsed.has_value());
  CHECK(parsed->kernel_calls.empty());
  CHECK(parsed->kernels.size() == 3);
  CHECK(parsed->input_checks.size() == whole.input_checks.size());
  // Cut inside the embedded source: the kernel is still read up to there.
  const std::size_t mid_source = text.find("tl.device_assert") + 20;
  const auto in_source = parse_wrapper(std::string_view(text).substr(0, mid_source), k_where);
  REQUIRE(in_source.has_value());
  REQUIRE(in_source->kernels.size() == 1);
  CHECK(in_source->kernels[0].loads.size() == 1);
  CHECK(in_source->kernels[0].asserts.empty());
}

TEST_CASE("garbage inserted or appended does not hide the rest") {
  const std::string text = wrapper_text("embedding-device-assert");
  std::string garbage(20000, '\0');
  std::mt19937 random(11);
  for (auto& byte : garbage) byte = static_cast<char>(random() % 256);

  const std::size_t whole_checks = parse_case("embedding-device-assert").input_checks.size();
  const auto appended = parse_wrapper(text + garbage, k_where);
  REQUIRE(appended.has_value());
  CHECK(appended->kernel_calls.size() == 3);
  CHECK(appended->link_cmd.size() > 100);

  // Garbage in the middle of a Triton source, absurd facts and an unclosed comment in C++.
  const std::size_t in_source = text.find("def triton_poi_fused_1(");
  const std::size_t in_cxx = text.find("void AOTInductorModel::_const_run_impl(");
  const std::string broken =
      text.substr(0, in_source) + garbage + "\n" + text.substr(in_source, in_cxx - in_source) +
      "/* never closed\n" + "    if (arg3_1_size[99999999999999999999] > 5) {\n" +
      "    if (arg3_1_size[0] > 99999999999999999999) {\n" + "    int64_t s9 = arg3_1_size[-1];\n" +
      "    constants_info_[99999999999].name = \"x\";\n" +
      "    constants_info_[0].shape = {1, 99999999999999999999};\n" +
      "    aoti_torch_proxy_executor_call_function(proxy_executor, 99999999999999, 0);\n" +
      "    call_triton_x(a, (b, c);\n" + text.substr(in_cxx);
  const auto inserted = parse_wrapper(broken, k_where);
  REQUIRE(inserted.has_value());
  CHECK(inserted->inputs.size() == 1);
  CHECK(inserted->constants.size() == 2);
  CHECK(inserted->constants[0].shape == std::vector<std::int64_t>{1000, 32});
  CHECK(inserted->kernel_calls.size() == 3);
  CHECK(inserted->proxy_calls.empty());
  CHECK(inserted->bindings.size() == 2);
  CHECK(inserted->kernels.size() == 3);
  CHECK(find_kernel(*inserted, "triton_poi_fused_1")->constant_numels.at("xnumel") == 8);
  CHECK(inserted->input_checks.size() == whole_checks);
  const auto* max0 = find_check(*inserted, InputCheckKind::dim_max, 0);
  REQUIRE(max0);
  CHECK(max0->value == 64);
}

TEST_CASE("a kernel source that lost its closing quotes ends at the next C++ definition") {
  std::string text = wrapper_text("embedding-device-assert");
  const std::string closing = "    ''', device_str='cuda')\n    */\n";
  const std::size_t at = text.find(closing);
  REQUIRE(at != std::string::npos);
  text.erase(at, closing.size());
  const auto parsed = parse_wrapper(text, k_where);
  REQUIRE(parsed.has_value());
  CHECK(parsed->kernels.size() == 3);
  CHECK(find_kernel(*parsed, "triton_poi_fused_embedding_0")->asserts.size() == 1);
  CHECK(parsed->kernel_calls.size() == 3);
  CHECK(parsed->input_checks.size() == 7);
}

TEST_CASE("a 50 MB line is read in linear time") {
  const std::string text = wrapper_text("healthy-cuda-dynamic");
  const std::size_t at = text.find("void AOTInductorModel::run_impl(");
  std::string huge_call = "    call_triton_huge(";
  huge_call.append(50u << 20, 'a');
  huge_call += ", b);\n";
  std::string huge_list = "    call_triton_many(";
  for (int i = 0; i < 1000000; ++i) huge_list += "x,";
  huge_list += "y);\n";
  const std::string huge_comment = "    // " + std::string(50u << 20, '[') + "\n";
  const std::string huge_source =
      "    async_compile.triton('k', '''\n        tmp0 = " + std::string(50u << 20, '(') +
      "\n    ''')\n";
  const std::string bloated =
      text.substr(0, at) + huge_call + huge_list + huge_comment + huge_source + text.substr(at);

  const auto start = std::chrono::steady_clock::now();
  const auto parsed = parse_wrapper(bloated, k_where);
  const auto seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  REQUIRE(parsed.has_value());
  CHECK(seconds < 10.0);
  const auto* huge = find_call(*parsed, "triton_huge");
  REQUIRE(huge);
  CHECK(huge->args.size() == 2);
  CHECK(huge->args[0].size() == (50u << 20));
  CHECK_FALSE(find_call(*parsed, "triton_many"));  // too many arguments to be a real launch
  CHECK(find_call(*parsed, "triton_poi_fused_addmm_relu_0"));
  CHECK(parsed->input_checks.size() == 7);

  const std::string one_line(50u << 20, 'x');
  CHECK_FALSE(parse_wrapper(one_line, k_where).has_value());
}

TEST_CASE("looks_like_wrapper: a log quoting AOTI frames and paths is not a wrapper") {
  CHECK_FALSE(looks_like_wrapper(
      "frame #5: torch::aot_inductor::AOTInductorModel::run_impl(AtenTensorOpaque**, "
      "AtenTensorOpaque**, void*) + 0x1c\n"
      "RuntimeError: run_func_(...) API call failed at "
      "/pytorch/torch/csrc/inductor/aoti_runner/model_container_runner.cpp\n"
      "  AOTInductorModel::AOTInductorModel( in a quoted line\n"));
  CHECK(looks_like_wrapper("\n#include <torch/csrc/inductor/aoti_include/cuda.h>\n"));
  CHECK(looks_like_wrapper(wrapper_text("healthy-cuda-dynamic").substr(0, 4096)));
}
