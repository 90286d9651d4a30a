// The wrapper parser on the eight real torch 2.11 wrappers of the corpus, and on hostile text.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <set>
#include <string>

#include "torch/index_assert.hpp"
#include "parsers/wrapper/cpp_kernel.hpp"
#include "parsers/wrapper/wrapper_parser.hpp"
#include "tests/support.hpp"

namespace {

using aoti::model::InputCheck;
using aoti::model::InputCheckKind;
using aoti::model::WrapperFacts;
using aoti::parsers::wrapper::looks_like_wrapper;
using aoti::parsers::wrapper::parse_wrapper;

const aoti::model::Location k_where{"model.pt2", "model/data/aotinductor/model/x.wrapper.cpp", 0};

std::string wrapper_text(const std::string& case_name) {
  return aoti::test::corpus_entry_text(case_name, ".wrapper.cpp");
}

WrapperFacts parse_case(const std::string& case_name) {
  const std::string text = wrapper_text(case_name);
  REQUIRE_FALSE(text.empty());
  auto parsed = parse_wrapper(text, k_where);
  REQUIRE(parsed.has_value());
  return std::move(*parsed);
}

const aoti::model::TritonKernel* find_kernel(const WrapperFacts& facts, const std::string& name) {
  const auto it = std::find_if(facts.kernels.begin(), facts.kernels.end(),
                               [&](const auto& kernel) { return kernel.name == name; });
  return it == facts.kernels.end() ? nullptr : &*it;
}

const aoti::model::KernelCall* find_call(const WrapperFacts& facts, const std::string& kernel) {
  const auto it = std::find_if(facts.kernel_calls.begin(), facts.kernel_calls.end(),
                               [&](const auto& call) { return call.kernel == kernel; });
  return it == facts.kernel_calls.end() ? nullptr : &*it;
}

const InputCheck* find_check(const WrapperFacts& facts, InputCheckKind kind, int dim = -1) {
  const auto it =
      std::find_if(facts.input_checks.begin(), facts.input_checks.end(),
                   [&](const auto& check) { return check.kind == kind && check.dim == dim; });
  return it == facts.input_checks.end() ? nullptr : &*it;
}

const aoti::model::WrapperConstant* find_constant(const WrapperFacts& facts,
                                                 const std::string& name) {
  const auto it = std::find_if(facts.constants.begin(), facts.constants.end(),
                               [&](const auto& constant) { return constant.name == name; });
  return it == facts.constants.end() ? nullptr : &*it;
}

// The 1-based line `line` of `text`.
std::string line_of(const std::string& text, int line) {
  std::size_t begin = 0;
  for (int i = 1; i < line && begin != std::string::npos; ++i) {
    begin = text.find('\n', begin);
    if (begin != std::string::npos) ++begin;
  }
  if (begin == std::string::npos) return {};
  return text.substr(begin, text.find('\n', begin) - begin);
}

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

}  // namespace

TEST_CASE("embedding-device-assert: the assert traced to its kernel, call, binding and input") {
  const std::string text = wrapper_text("embedding-device-assert");
  const WrapperFacts facts = parse_case("embedding-device-assert");
  CHECK(facts.where.entry == k_where.entry);
  REQUIRE(facts.inputs.size() == 1);
  CHECK(facts.inputs[0].name == "arg3_1");
  CHECK(facts.inputs[0].index == 0);
  CHECK(contains(line_of(text, facts.inputs[0].line), "inputs_info_[0].name"));
  CHECK(facts.outputs == std::vector<std::string>{"output0"});

  const auto* weight = find_constant(facts, "emb_weight");
  REQUIRE(weight);
  CHECK(weight->dtype == "float32");
  CHECK(weight->device_type == "cuda");
  CHECK(weight->kind == "Parameter");
  CHECK(weight->original_fqn == "emb.weight");
  CHECK(weight->shape == std::vector<std::int64_t>{1000, 32});
  CHECK(weight->stride == std::vector<std::int64_t>{32, 1});
  CHECK(weight->data_size == 128000);
  CHECK_FALSE(weight->from_folded);

  const auto* kernel = find_kernel(facts, "triton_poi_fused_embedding_0");
  REQUIRE(kernel);
  CHECK(kernel->params ==
        std::vector<std::string>{"in_ptr0", "in_ptr1", "out_ptr0", "ynumel", "xnumel"});
  CHECK(kernel->signature.at("in_ptr0") == "*i64");
  CHECK(kernel->signature.at("ynumel") == "i32");
  CHECK(kernel->constant_numels.at("xnumel") == 32);
  CHECK(contains(line_of(text, kernel->line), "def triton_poi_fused_embedding_0("));
  CHECK(contains(line_of(text, kernel->source_begin),
                 "async_compile.triton('triton_poi_fused_embedding_0'"));
  CHECK(contains(line_of(text, kernel->source_end), "'''"));
  REQUIRE(kernel->asserts.size() == 1);
  const auto& assertion = kernel->asserts[0];
  CHECK(assertion.message == "index out of bounds: 0 <= tmp4 < 1000");
  CHECK(assertion.condition == "((0 <= tmp4) & (tmp4 < 1000)) | ~(ymask)");
  CHECK(assertion.index_var == "tmp4");
  CHECK(assertion.bound == "1000");
  CHECK(contains(line_of(text, assertion.line), "tl.device_assert("));
  // The parser keeps the line itself, so a check quotes it instead of rebuilding it.
  CHECK(assertion.text == trimmed(line_of(text, assertion.line)));
  REQUIRE(kernel->loads.size() == 3);
  CHECK(kernel->loads[0].var == "tmp0");
  CHECK(kernel->loads[0].pointer == "in_ptr0");
  CHECK(kernel->loads[0].offset == "y0");
  CHECK(kernel->loads[0].text == trimmed(line_of(text, kernel->loads[0].line)));
  CHECK(kernel->loads[1].offset == "x1 + 32*tmp4");
  CHECK_FALSE(kernel->loads[1].is_store);
  // The store addresses memory too: `tl.store(out_ptr0 + (x1 + 32*y0), tmp6, xmask & ymask)`.
  CHECK(kernel->loads[2].is_store);
  CHECK(kernel->loads[2].pointer == "out_ptr0");
  CHECK(kernel->loads[2].var.empty());
  // The chain a check follows back from the assert's index to the loaded input.
  CHECK(kernel->assignments.at("tmp4") == "tl.where(tmp3, tmp2, tmp0)");
  CHECK(kernel->assignments.at("tmp2") == "tmp0 + tmp1");
  CHECK(contains(kernel->assignments.at("tmp0"), "tl.load(in_ptr0 + (y0)"));

  const auto* reduction = find_kernel(facts, "triton_red_fused_sum_view_2");
  REQUIRE(reduction);
  CHECK(reduction->params ==
        std::vector<std::string>{"in_ptr0", "out_ptr0", "ks0", "xnumel", "r0_numel"});
  CHECK(reduction->signature.at("ks0") == "i64");
  CHECK(reduction->constant_numels.empty());
  REQUIRE(reduction->loads.size() == 2);
  CHECK(reduction->loads[0].offset == "x0 + 8*r0_2 + 8*ks0*x1");
  CHECK(reduction->loads[1].is_store);
  CHECK(facts.kernels.size() == 3);

  const auto* call = find_call(facts, "triton_poi_fused_embedding_0");
  REQUIRE(call);
  REQUIRE(call->args.size() == 9);
  CHECK(call->args[0] == "arg3_1");
  CHECK(call->args[1] == "emb_weight");
  CHECK(call->args[3] == "triton_poi_fused_embedding_0_ynumel");
  CHECK(call->args[4] == "32L");
  CHECK(call->args[8] == "this->cubin_dir_");
  CHECK(call->source_nodes == std::vector<std::string>{"embedding"});
  CHECK(call->aten_ops == std::vector<std::string>{"aten.embedding"});
  CHECK(contains(line_of(text, call->line), "call_triton_poi_fused_embedding_0(arg3_1"));
  const auto* unsorted = find_call(facts, "triton_poi_fused_1");
  REQUIRE(unsorted);
  CHECK(unsorted->source_nodes.empty());
  const auto* sum = find_call(facts, "triton_red_fused_sum_view_2");
  REQUIRE(sum);
  CHECK(sum->args[2] == "s27");
  CHECK(sum->source_nodes == std::vector<std::string>{"linear", "sum_1"});
  CHECK(sum->aten_ops == std::vector<std::string>{"aten.view", "aten.sum"});

  REQUIRE(facts.bindings.size() == 2);
  CHECK(facts.bindings[0].symbol == "s23");
  CHECK(facts.bindings[0].input == "arg3_1");
  CHECK(facts.bindings[0].dim == 0);
  CHECK_FALSE(facts.bindings[0].is_stride);
  CHECK(facts.bindings[1].symbol == "s27");
  CHECK(facts.bindings[1].dim == 1);
  CHECK(contains(line_of(text, facts.bindings[1].line), "int64_t s27 = arg3_1_size[1];"));

  const auto* max0 = find_check(facts, InputCheckKind::dim_max, 0);
  REQUIRE(max0);
  CHECK(max0->value == 64);
  CHECK(max0->input_name == "arg3_1");
  CHECK(max0->input_index == 0);
  CHECK(contains(line_of(text, max0->line), "if (arg3_1_size[0] > 64)"));
  const auto* dtype = find_check(facts, InputCheckKind::dtype);
  REQUIRE(dtype);
  CHECK(dtype->value == 4);
  CHECK(dtype->label == "at::kLong");
  CHECK(contains(line_of(text, dtype->line), "if (arg3_1_expected_dtype != arg3_1_dtype)"));
  CHECK(facts.checks_gated_by_env);
  CHECK(facts.proxy_calls.empty());
  CHECK(contains(facts.compile_cmd, "-c -o "));
  CHECK(contains(facts.link_cmd, "-shared"));
  CHECK(facts.line_count == 1031);
}

TEST_CASE("const-cpu-buffer: a CPU buffer constant beside its cuda copy") {
  const WrapperFacts facts = parse_case("const-cpu-buffer");
  REQUIRE(facts.constants.size() == 4);
  const auto* scale = find_constant(facts, "scale");
  REQUIRE(scale);
  CHECK(scale->device_type == "cpu");
  CHECK(scale->kind == "Buffer");
  CHECK(scale->index == 2);
  const auto* copy = find_constant(facts, "scale_cuda0");
  REQUIRE(copy);
  CHECK(copy->device_type == "cuda");
  const auto* call = find_call(facts, "triton_poi_fused_addmm_mul_0");
  REQUIRE(call);
  CHECK(call->args[2] == "scale_cuda0");
  CHECK(call->source_nodes == std::vector<std::string>{"linear", "mul"});
  CHECK(facts.link_cmd.starts_with("/opt/gcc/bin/g++ "));
}

TEST_CASE("custom-op-fake-static-rows: the proxy call and the kernel's static numel") {
  const std::string text = wrapper_text("custom-op-fake-static-rows");
  const WrapperFacts facts = parse_case("custom-op-fake-static-rows");
  REQUIRE(facts.proxy_calls.size() == 1);
  const auto& proxy = facts.proxy_calls[0];
  CHECK(proxy.extern_node_index == 0);
  CHECK(proxy.tensor_args == std::vector<std::string>{"arg0_1", "buf1"});
  CHECK(proxy.aten_ops == std::vector<std::string>{"heldout.pad_rows"});
  CHECK(proxy.source_nodes == std::vector<std::string>{"pad_rows"});
  CHECK(contains(line_of(text, proxy.line), "aoti_torch_proxy_executor_call_function("));
  const auto* kernel = find_kernel(facts, "triton_poi_fused_add_mul_relu_0");
  REQUIRE(kernel);
  CHECK(kernel->constant_numels.at("xnumel") == 144);
  const auto* call = find_call(facts, "triton_poi_fused_add_mul_relu_0");
  REQUIRE(call);
  CHECK(call->args[0] == "buf2");
  CHECK(call->args[1] == "144L");
  REQUIRE(facts.bindings.size() == 1);
  CHECK(facts.bindings[0].symbol == "s77");
  REQUIRE(facts.buffer_reuses.size() == 1);
  CHECK(facts.buffer_reuses[0].from == "buf1");
  CHECK(facts.buffer_reuses[0].to == "buf2");
}

TEST_CASE("cpp-meta-sizes: a C++ custom op through the proxy executor") {
  const WrapperFacts facts = parse_case("cpp-meta-sizes");
  REQUIRE(facts.proxy_calls.size() == 1);
  CHECK(facts.proxy_calls[0].aten_ops == std::vector<std::string>{"heldout_cpp.scale_rows"});
  CHECK(facts.bindings.empty());
  const auto* dim0 = find_check(facts, InputCheckKind::dim_equal, 0);
  REQUIRE(dim0);
  CHECK(dim0->value == 8);
}

TEST_CASE("input-check-errors: the whole input contract and its runtime gate") {
  const std::string text = wrapper_text("input-check-errors");
  const WrapperFacts facts = parse_case("input-check-errors");
  const auto* min0 = find_check(facts, InputCheckKind::dim_min, 0);
  REQUIRE(min0);
  CHECK(min0->value == 2);
  CHECK(min0->input_name == "arg4_1");
  CHECK(min0->input_index == 0);
  const auto* max0 = find_check(facts, InputCheckKind::dim_max, 0);
  REQUIRE(max0);
  CHECK(max0->value == 1024);
  const auto* equal1 = find_check(facts, InputCheckKind::dim_equal, 1);
  REQUIRE(equal1);
  CHECK(equal1->value == 16);
  const auto* stride0 = find_check(facts, InputCheckKind::stride_equal, 0);
  REQUIRE(stride0);
  CHECK(stride0->value == 16);
  const auto* stride1 = find_check(facts, InputCheckKind::stride_equal, 1);
  REQUIRE(stride1);
  CHECK(stride1->value == 1);
  const auto* dtype = find_check(facts, InputCheckKind::dtype);
  REQUIRE(dtype);
  CHECK(dtype->value == 6);
  CHECK(dtype->label == "at::kFloat");
  const auto* device = find_check(facts, InputCheckKind::device_type);
  REQUIRE(device);
  CHECK(device->value == 1);
  CHECK(device->label == "cuda");
  CHECK(device->input_index == 0);
  CHECK(contains(line_of(text, device->line),
                 "if (arg4_1_expected_device_type != arg4_1_device_type)"));
  CHECK(facts.input_checks.size() == 7);
  CHECK(facts.checks_gated_by_env);
  CHECK(contains(line_of(text, facts.gate_line), "if (!_check_aoti_runtime_check_inputs_env())"));
  REQUIRE(facts.bindings.size() == 1);
  CHECK(facts.bindings[0].symbol == "s31");
  const auto* call = find_call(facts, "triton_poi_fused_addmm_relu_0");
  REQUIRE(call);
  CHECK(call->args[2] == "triton_poi_fused_addmm_relu_0_xnumel");
}

TEST_CASE("healthy-cuda-dynamic: kernels, calls and an input with a dynamic batch") {
  const WrapperFacts facts = parse_case("healthy-cuda-dynamic");
  CHECK(facts.kernels.size() == 2);
  CHECK(facts.kernel_calls.size() == 2);
  for (const auto& kernel : facts.kernels) CHECK(kernel.asserts.empty());
  CHECK(facts.constants.size() == 3);
  CHECK(facts.constants[0].kind == "Unknown");
  CHECK(facts.in_spec.starts_with("[1, {\"type\": \"builtins.tuple\""));
  CHECK(facts.out_spec == R"([1, {"type": null, "context": null, "children_spec": []}])");
}

TEST_CASE("load-crash-static-libstdcxx: the link command names the compiler") {
  const std::string text = wrapper_text("load-crash-static-libstdcxx");
  const WrapperFacts facts = parse_case("load-crash-static-libstdcxx");
  CHECK(facts.link_cmd.starts_with("/opt/gcc/bin/g++ "));
  CHECK(facts.compile_cmd.starts_with("/opt/gcc/bin/g++ "));
  CHECK(contains(line_of(text, facts.link_cmd_line), facts.link_cmd.substr(0, 40)));
  CHECK(contains(line_of(text, facts.compile_cmd_line - 1), "// Compile cmd"));
  CHECK(facts.bindings.empty());
  const auto* kernel = find_kernel(facts, "triton_poi_fused_addmm_relu_0");
  REQUIRE(kernel);
  CHECK(kernel->constant_numels.at("xnumel") == 128);
}

TEST_CASE("cpu-package-cuda-input-segv: C++ kernel calls, no Triton") {
  const WrapperFacts facts = parse_case("cpu-package-cuda-input-segv");
  CHECK(facts.kernels.empty());
  REQUIRE(facts.kernel_calls.size() == 2);
  CHECK(facts.kernel_calls[0].kernel == "cpp_fused_convolution_0");
  CHECK(facts.kernel_calls[0].args.front() == "(const float*)(arg4_1.data_ptr())");
  CHECK(facts.kernel_calls[0].args.back() == "s16");
  CHECK(facts.kernel_calls[1].kernel == "cpp_fused_mean_relu_1");
  // Its preceding comment belongs to the convolution the wrapper called in between.
  CHECK(facts.kernel_calls[1].source_nodes.empty());
  for (const auto& constant : facts.constants) CHECK(constant.device_type == "cpu");
  const auto* device = find_check(facts, InputCheckKind::device_type);
  REQUIRE(device);
  CHECK(device->value == 0);
  CHECK(device->label == "cpu");
  const auto* equal3 = find_check(facts, InputCheckKind::dim_equal, 3);
  REQUIRE(equal3);
  CHECK(equal3->value == 16);
  REQUIRE(facts.bindings.size() == 2);
  CHECK(facts.bindings[1].symbol == "s16");
  CHECK(facts.bindings[1].dim == 2);
}

TEST_CASE("every corpus wrapper parses with inputs, checks and both commands") {
  for (const char* name :
       {"const-cpu-buffer", "cpp-meta-sizes", "cpu-package-cuda-input-segv",
        "custom-op-fake-static-rows", "embedding-device-assert", "healthy-cuda-dynamic",
        "input-check-errors", "load-crash-static-libstdcxx"}) {
    CAPTURE(name);
    const std::string text = wrapper_text(name);
    CHECK(looks_like_wrapper(std::string_view(text).substr(0, 4096)));
    const WrapperFacts facts = parse_case(name);
    CHECK_FALSE(facts.inputs.empty());
    CHECK_FALSE(facts.input_checks.empty());
    CHECK(facts.checks_gated_by_env);
    CHECK_FALSE(facts.compile_cmd.empty());
    CHECK_FALSE(facts.link_cmd.empty());
    CHECK_FALSE(facts.in_spec.empty());
    for (const auto& check : facts.input_checks) CHECK(check.input_index == 0);
    for (const auto& call : facts.kernel_calls) {
      CHECK_FALSE(call.args.empty());
      // Every Triton launch has its kernel's source in the same wrapper.
      if (call.kernel.starts_with("triton_")) CHECK(find_kernel(facts, call.kernel));
    }
  }
}

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

TEST_CASE("embedding-device-assert: every source-nodes comment, also those before direct ATen calls") {
  const WrapperFacts facts = parse_case("embedding-device-assert");
  const auto linear = std::find_if(facts.source_node_comments.begin(), facts.source_node_comments.end(),
                                   [](const auto& c) { return c.nodes == std::vector<std::string>{"embedding", "linear"}; });
  REQUIRE(linear != facts.source_node_comments.end());
  CHECK(std::find(linear->aten_ops.begin(), linear->aten_ops.end(), "aten.addmm") != linear->aten_ops.end());
  CHECK(linear->line > 0);
  CHECK(facts.source_node_comments.size() >= facts.kernel_calls.size());
}

TEST_CASE("looks_like_wrapper: a log quoting AOTI frames and paths is not a wrapper") {
  CHECK_FALSE(looks_like_wrapper(
      "frame #5: torch::aot_inductor::AOTInductorModel::run_impl(AtenTensorOpaque**, AtenTensorOpaque**, void*) + 0x1c\n"
      "RuntimeError: run_func_(...) API call failed at /pytorch/torch/csrc/inductor/aoti_runner/model_container_runner.cpp\n"
      "  AOTInductorModel::AOTInductorModel( in a quoted line\n"));
  CHECK(looks_like_wrapper("\n#include <torch/csrc/inductor/aoti_include/cuda.h>\n"));
  CHECK(looks_like_wrapper(wrapper_text("healthy-cuda-dynamic").substr(0, 4096)));
}

// ---- every index-assert form Inductor writes ----------------------------------------------------
// The lines below are Inductor's own output: from the corpus packages, from the packages
// corpus/generate/assert_forms.py built with torch 2.11 (tests/data/assert_forms/), from a kernel
// posted in pytorch/pytorch#100530 (older torch), and, for the one-sided forms torch 2.11 did not
// emit in those runs, the f-strings of `Kernel.indirect_assert` (torch/_inductor/codegen/common.py:
// `cond = f"{var} < {upper}"; cond_print = cond`, `cond = f"({cond}) | ~({mask})"`) and of
// `CppVecKernel.indirect_assert` (cpp.py) filled in as they are written.

namespace {

struct AssertForm {
  const char* line;       // the kernel line, as Inductor writes it
  const char* index_var;  // what the parser reads from it
  const char* lower;
  const char* upper;
};

// A wrapper whose only content is one Triton kernel holding `line`.
std::string triton_wrapper_with(const std::string& line) {
  return "#include <torch/csrc/inductor/aoti_include/cuda.h>\n"
         "class AOTInductorModel {};\n"
         "/*\n"
         "async_compile.triton('triton_poi_fused_index_0', '''\n"
         "@triton.jit\n"
         "def triton_poi_fused_index_0(in_ptr0, in_ptr1, out_ptr0, ks0, ks1, xnumel, XBLOCK : tl.constexpr):\n"
         "    tmp0 = tl.load(in_ptr0 + (x0), xmask)\n"
         "    " + line + "\n"
         "''', device_str='cuda')\n"
         "*/\n";
}

}  // namespace

TEST_CASE("every Triton index-assert form: index var, bound and the exact line") {
  const AssertForm forms[] = {
      // corpus/embedding-device-assert: both sides, a literal bound, a mask.
      {R"(tl.device_assert(((0 <= tmp4) & (tmp4 < 1000)) | ~(ymask), "index out of bounds: 0 <= tmp4 < 1000"))",
       "tmp4", "0", "1000"},
      // corpus/index-select-empty: a kernel parameter.
      {R"(tl.device_assert(((0 <= tmp4) & (tmp4 < ks0)) | ~(ymask), "index out of bounds: 0 <= tmp4 < ks0"))",
       "tmp4", "0", "ks0"},
      // corpus/flat-index-product-bound: a product of parameters.
      {R"(tl.device_assert(((0 <= tmp4) & (tmp4 < ks0*ks1)) | ~(xmask), "index out of bounds: 0 <= tmp4 < ks0*ks1"))",
       "tmp4", "0", "ks0*ks1"},
      // assert_forms.py `sum` (torch.cat then index): a sum.
      {R"(tl.device_assert(((0 <= tmp4) & (tmp4 < 1 + ks0)) | ~(ymask), "index out of bounds: 0 <= tmp4 < 1 + ks0"))",
       "tmp4", "0", "1 + ks0"},
      // assert_forms.py `two_index`: the second of two asserts in one kernel.
      {R"(tl.device_assert(((0 <= tmp10) & (tmp10 < 32)) | ~(xmask), "index out of bounds: 0 <= tmp10 < 32"))",
       "tmp10", "0", "32"},
      // pytorch/pytorch#100530 (torch 2.0): extra parentheses, an unparenthesized mask.
      {R"(tl.device_assert((((0 <= tmp14) & (tmp14 < 24))) | ~xmask, "index out of bounds: 0 <= tmp14 < 24"))",
       "tmp14", "0", "24"},
      // common.py with no mask.
      {R"(tl.device_assert((0 <= tmp1) & (tmp1 < 64), "index out of bounds: 0 <= tmp1 < 64"))", "tmp1", "0", "64"},
      // common.py, upper side only (the index's range starts at 0).
      {R"(tl.device_assert((tmp6 < 1000) | ~(ymask), "index out of bounds: tmp6 < 1000"))", "tmp6", "", "1000"},
      // common.py, lower side only (the range stays below a static size).
      {R"(tl.device_assert((0 <= tmp6) | ~(ymask), "index out of bounds: 0 <= tmp6"))", "tmp6", "0", ""},
  };
  for (const auto& form : forms) {
    CAPTURE(form.line);
    const std::string text = triton_wrapper_with(form.line);
    const auto parsed = parse_wrapper(text, k_where);
    REQUIRE(parsed.has_value());
    REQUIRE(parsed->kernels.size() == 1);
    REQUIRE(parsed->kernels[0].asserts.size() == 1);
    const auto& assertion = parsed->kernels[0].asserts[0];
    CHECK(assertion.index_var == form.index_var);
    CHECK(assertion.bound == form.upper);
    CHECK(assertion.text == form.line);
    CHECK(line_of(text, assertion.line) == "    " + std::string(form.line));
    const auto read = aoti::torch::parse_index_assert(assertion.message);
    REQUIRE(read.has_value());
    CHECK(read->lower == form.lower);
    CHECK(read->upper == form.upper);
    CHECK(aoti::torch::condition_text(*read) == assertion.message.substr(aoti::torch::k_index_assert_prefix.size()));
  }
}

TEST_CASE("index-assert messages: every form torch writes, and texts that only look like one") {
  using aoti::torch::parse_index_assert;
  CHECK(parse_index_assert("index out of bounds: 0 <= tmp7 < 1L + ks0")->upper == "1L + ks0");
  CHECK(parse_index_assert("0 <= tmp10 < ks1*ks2")->index_var == "tmp10");
  CHECK(parse_index_assert("index out of bounds: tmp2 < 2048")->lower.empty());
  CHECK(parse_index_assert("index out of bounds: 0 <= tmp2")->upper.empty());
  // Rust's panic and other "index out of bounds" texts are not Inductor's.
  CHECK_FALSE(parse_index_assert("index out of bounds: the len is 3 but the index is 4"));
  CHECK_FALSE(parse_index_assert("index out of bounds: "));
  CHECK_FALSE(parse_index_assert("index out of bounds: 0 <= "));
  CHECK_FALSE(parse_index_assert("index out of bounds: tmp1 <= 4"));
  CHECK_FALSE(parse_index_assert("index out of bounds: 0 <= tmp1 < (ks0"));
}

TEST_CASE("cpu-index-check: the C++ kernel of <hash>.kernel.cpp, its check, loads and parameters") {
  const std::string text = aoti::test::corpus_entry_text("cpu-index-check", ".kernel.cpp");
  const aoti::model::Location where{"model.pt2", "model/data/aotinductor/model/c.kernel.cpp", 0};
  const auto kernels = aoti::parsers::wrapper::read_cpp_kernels(text, where);
  REQUIRE(kernels.size() == 1);
  const auto& kernel = kernels[0];
  CHECK(kernel.name == "cpp_fused_embedding_mul_0");
  CHECK(kernel.language == aoti::model::KernelLanguage::cpp);
  CHECK(kernel.source.entry == where.entry);
  CHECK(kernel.params == std::vector<std::string>{"in_ptr0", "in_ptr1", "out_ptr0", "ks0"});
  CHECK(kernel.signature.at("in_ptr0") == "const int64_t*");
  CHECK(kernel.signature.at("ks0") == "const int64_t");
  CHECK(contains(line_of(text, kernel.source_begin), "extern \"C\"  void  cpp_fused_embedding_mul_0("));
  CHECK(line_of(text, kernel.source_end) == "}");
  REQUIRE(kernel.asserts.size() == 1);
  const auto& check = kernel.asserts[0];
  CHECK(check.line == 26);
  CHECK(check.text ==
        R"(AOTI_TORCH_CHECK((0 <= tmp7) & (tmp7 < 1000L), "index out of bounds: 0 <= tmp7 < 1000L");)");
  CHECK(check.message == "index out of bounds: 0 <= tmp7 < 1000L");
  CHECK(check.condition == "(0 <= tmp7) & (tmp7 < 1000L)");
  CHECK(check.index_var == "tmp7");
  CHECK(check.bound == "1000L");
  // The chain back to the ids: tmp7 = convert(tmp6), tmp6 = tmp5, tmp5 = tmp4 ? tmp3 : tmp0.
  CHECK(kernel.assignments.at(aoti::model::scoped_name("tmp7", check.scope)) == "c10::convert<int64_t>(tmp6)");
  CHECK(kernel.assignments.at(aoti::model::scoped_name("tmp5", check.scope)) == "tmp4 ? tmp3 : tmp0");
  REQUIRE(kernel.loads.size() == 3);
  CHECK(kernel.loads[0].var == "tmp0");
  CHECK(kernel.loads[0].pointer == "in_ptr0");
  CHECK(kernel.loads[0].offset == "static_cast<int64_t>(x0)");
  CHECK(kernel.loads[0].text == "auto tmp0 = in_ptr0[static_cast<int64_t>(x0)];");
  CHECK(kernel.loads[1].pointer == "in_ptr1");
  CHECK(kernel.loads[1].offset == "static_cast<int64_t>(x1 + 32L*tmp5)");
  CHECK(kernel.loads[2].is_store);
  CHECK(kernel.loads[2].pointer == "out_ptr0");
  for (const auto& load : kernel.loads) CHECK(load.text == trimmed(line_of(text, load.line)));
}

TEST_CASE("a vectorized C++ check, in the main loop and in the vector tail") {
  const std::string text = aoti::test::read_file(aoti::test::source_dir() / "tests/data/assert_forms/product-cpu.kernel.cpp");
  const auto kernels = aoti::parsers::wrapper::read_cpp_kernels(text, {"m.pt2", "k.kernel.cpp", 0});
  REQUIRE(kernels.size() == 1);
  const auto& kernel = kernels[0];
  CHECK(kernel.name == "cpp_fused_index_mul_view_0");
  CHECK(kernel.params == std::vector<std::string>{"in_ptr0", "in_ptr1", "out_ptr0", "ks0", "ks1", "ks2"});
  REQUIRE(kernel.asserts.size() == 2);
  for (const auto& check : kernel.asserts) {
    CHECK(check.message == "index out of bounds: 0 <= tmp10 < ks1*ks2");
    CHECK(check.index_var == "tmp10");
    CHECK(check.bound == "ks1*ks2");
    CHECK(check.text == trimmed(line_of(text, check.line)));
  }
  CHECK(kernel.asserts[0].line == 48);
  CHECK(kernel.asserts[0].condition ==
        "(at::vec::VecMask<int64_t,2>((at::vec::VectorizedN<int64_t,2>(0) <= tmp10) & (tmp10 < "
        "at::vec::VectorizedN<int64_t,2>(ks1*ks2)))).all_masked()");
  CHECK(kernel.asserts[1].line == 100);
  CHECK(contains(kernel.asserts[1].condition, "at::vec::VecMask<int64_t,2>::set("));
  // `auto tmp10 =` then a lambda: the value is the lambda's lines, the gather inside is a load of tmp12.
  CHECK(contains(kernel.assignments.at(aoti::model::scoped_name("tmp10", kernel.asserts[0].scope)), "tmp9[x0_inner]"));
  const auto gather = std::find_if(kernel.loads.begin(), kernel.loads.end(), [](const auto& l) { return l.line == 56; });
  REQUIRE(gather != kernel.loads.end());
  CHECK(gather->var == "tmp12");
  CHECK(gather->pointer == "in_ptr1");
  CHECK(gather->offset == "static_cast<int64_t>(tmp9[x0_inner])");
}

TEST_CASE("C++ loop nests number their temporaries afresh: each keeps its own") {
  const std::string text = aoti::test::read_file(aoti::test::source_dir() / "tests/data/assert_forms/index_put-cpu.kernel.cpp");
  const auto kernels = aoti::parsers::wrapper::read_cpp_kernels(text, {"m.pt2", "k.kernel.cpp", 0});
  REQUIRE(kernels.size() == 1);
  const auto& kernel = kernels[0];
  REQUIRE(kernel.asserts.size() == 1);
  const auto& check = kernel.asserts[0];
  CHECK(check.line == 46);
  CHECK(check.bound == "ks0");
  CHECK(check.scope == 2);
  // `auto tmp0` is a copy of x in the first nest (main loop and vector tail) and the index in the second.
  std::set<std::pair<int, std::string>> tmp0;
  for (const auto& load : kernel.loads)
    if (load.var == "tmp0") tmp0.emplace(load.scope, load.pointer);
  CHECK(tmp0 == std::set<std::pair<int, std::string>>{{1, "in_ptr0"}, {2, "in_ptr1"}});
  // The scatter: `atomic_add_vec<float, 2, 1>(out_ptr0, tmp12, tmp9, ...)` writes at tmp12.
  const auto scatter = std::find_if(kernel.loads.begin(), kernel.loads.end(), [](const auto& l) { return l.line == 50; });
  REQUIRE(scatter != kernel.loads.end());
  CHECK(scatter->is_store);
  CHECK(scatter->offset == "tmp12");
}

TEST_CASE("every C++ check form: AOTI_TORCH_CHECK and TORCH_CHECK, scalar and vectorized, one side or both") {
  const AssertForm forms[] = {
      // assert_forms.py emb_static / dyn_table / sum on CPU (scalar kernels).
      {R"(AOTI_TORCH_CHECK((0 <= tmp7) & (tmp7 < 1000L), "index out of bounds: 0 <= tmp7 < 1000L");)", "tmp7", "0", "1000L"},
      {R"(AOTI_TORCH_CHECK((0 <= tmp7) & (tmp7 < ks1), "index out of bounds: 0 <= tmp7 < ks1");)", "tmp7", "0", "ks1"},
      {R"(AOTI_TORCH_CHECK((0 <= tmp7) & (tmp7 < 1L + ks0), "index out of bounds: 0 <= tmp7 < 1L + ks0");)", "tmp7", "0", "1L + ks0"},
      // assert_forms.py two_index on CPU (vectorized).
      {R"(AOTI_TORCH_CHECK((at::vec::VecMask<int64_t,2>((at::vec::VectorizedN<int64_t,2>(0) <= tmp20) & (tmp20 < at::vec::VectorizedN<int64_t,2>(32L)))).all_masked(), "index out of bounds: 0 <= tmp20 < 32L");)",
       "tmp20", "0", "32L"},
      // cpp.py `assert_function`: TORCH_CHECK outside AOT mode (torch.compile's C++ kernels).
      {R"(TORCH_CHECK((0 <= tmp7) & (tmp7 < 1000L), "index out of bounds: 0 <= tmp7 < 1000L");)", "tmp7", "0", "1000L"},
      // cpp.py `CppVecKernel.indirect_assert`, one side only.
      {R"(AOTI_TORCH_CHECK((at::vec::VecMask<int64_t,2>(tmp10 < at::vec::VectorizedN<int64_t,2>(1000L))).all_masked(), "index out of bounds: tmp10 < 1000L");)",
       "tmp10", "", "1000L"},
      {R"(AOTI_TORCH_CHECK((at::vec::VecMask<int64_t,2>(at::vec::VectorizedN<int64_t,2>(0) <= tmp10)).all_masked(), "index out of bounds: 0 <= tmp10");)",
       "tmp10", "0", ""},
      // common.py through the scalar C++ kernel, one side only.
      {R"(AOTI_TORCH_CHECK(tmp7 < 1000L, "index out of bounds: tmp7 < 1000L");)", "tmp7", "", "1000L"},
  };
  for (const auto& form : forms) {
    CAPTURE(form.line);
    const std::string text = std::string("extern \"C\"  void  cpp_fused_index_0(const int64_t* in_ptr0,\n"
                                         "                       const int64_t ks0)\n"
                                         "{\n"
                                         "    {\n"
                                         "        auto tmp0 = in_ptr0[static_cast<int64_t>(x0)];\n"
                                         "        ") + form.line + "\n    }\n}\n";
    const auto kernels = aoti::parsers::wrapper::read_cpp_kernels(text, {"k.cpp", "", 0});
    REQUIRE(kernels.size() == 1);
    REQUIRE(kernels[0].asserts.size() == 1);
    const auto& check = kernels[0].asserts[0];
    CHECK(check.line == 6);
    CHECK(check.text == form.line);
    CHECK(check.index_var == form.index_var);
    CHECK(check.bound == form.upper);
    const auto read = aoti::torch::parse_index_assert(check.message);
    REQUIRE(read.has_value());
    CHECK(read->lower == form.lower);
  }
}

TEST_CASE("a CPU wrapper: its C++ launches are read with their line, its declarations are not kernels") {
  const std::string text = wrapper_text("cpu-index-check");
  const WrapperFacts facts = parse_case("cpu-index-check");
  // `extern "C"  void  cpp_fused_embedding_mul_0(const int64_t* in_ptr0, ...);` only declares it.
  CHECK(facts.kernels.empty());
  const auto* call = find_call(facts, "cpp_fused_embedding_mul_0");
  REQUIRE(call);
  CHECK(call->text == trimmed(line_of(text, call->line)));
  CHECK(call->args.front() == "(const int64_t*)(arg1_1.data_ptr())");
  CHECK(call->args.back() == "s23");

  // The kernel file adds its definition, numbered in its own lines.
  WrapperFacts with_kernels = facts;
  const aoti::model::Location kernel_file{"model.pt2", "model/data/aotinductor/model/k.kernel.cpp", 0};
  aoti::parsers::wrapper::add_kernel_source(with_kernels, aoti::test::corpus_entry_text("cpu-index-check", ".kernel.cpp"),
                                            kernel_file);
  REQUIRE(with_kernels.kernels.size() == 1);
  CHECK(with_kernels.kernels[0].source.entry == kernel_file.entry);
  CHECK(with_kernels.kernels[0].asserts.at(0).line == 26);
  // From a trace, the text starts at a later line of the trace file: every line is moved with it.
  WrapperFacts from_trace = facts;
  aoti::parsers::wrapper::add_kernel_source(from_trace, aoti::test::corpus_entry_text("cpu-index-check", ".kernel.cpp"),
                                            {"trace.log", "", 0}, 2159);
  CHECK(from_trace.kernels.at(0).asserts.at(0).line == 2185);
  CHECK(from_trace.kernels.at(0).loads.at(0).line == 2177);
}

TEST_CASE("C++ kernels cut anywhere, or hostile, yield what was read and never hang") {
  const std::string text = aoti::test::read_file(aoti::test::source_dir() / "tests/data/assert_forms/product-cpu.kernel.cpp");
  for (std::size_t cut = 0; cut < text.size(); cut += 97) {
    CAPTURE(cut);
    const auto kernels = aoti::parsers::wrapper::read_cpp_kernels(std::string_view(text).substr(0, cut), {"k", "", 0});
    CHECK(kernels.size() <= 1);
  }
  // A signature that never closes, a body that never ends, a megabyte check.
  const std::string open_signature = "extern \"C\"  void  cpp_fused_x(const float* in_ptr0,\n" + std::string(1u << 20, 'a');
  CHECK(aoti::parsers::wrapper::read_cpp_kernels(open_signature, {"k", "", 0}).empty());
  const std::string endless = "extern \"C\"  void  cpp_fused_x(const float* in_ptr0)\n{\n" +
                              std::string("AOTI_TORCH_CHECK(") + std::string(1u << 20, '(') + "\n";
  const auto read = aoti::parsers::wrapper::read_cpp_kernels(endless, {"k", "", 0});
  REQUIRE(read.size() == 1);
  CHECK(read[0].asserts.empty());
}
