// The wrapper parser on the eight real torch 2.11 wrappers of the corpus: the facts of each.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "tests/parsers_wrapper_support.hpp"

using namespace aoti::test::wrapper;
namespace model = aoti::model;
using aoti::test::source_dir;

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
  struct Expected {
    InputCheckKind kind;
    int dim;
    std::int64_t value;
    const char* label;
  };
  const Expected checks[] = {
      {InputCheckKind::dim_min, 0, 2, ""},          {InputCheckKind::dim_max, 0, 1024, ""},
      {InputCheckKind::dim_equal, 1, 16, ""},       {InputCheckKind::stride_equal, 0, 16, ""},
      {InputCheckKind::stride_equal, 1, 1, ""},     {InputCheckKind::dtype, -1, 6, "at::kFloat"},
      {InputCheckKind::device_type, -1, 1, "cuda"},
  };
  for (const Expected& expected : checks) {
    CAPTURE(static_cast<int>(expected.kind));
    CAPTURE(expected.dim);
    const auto* check = find_check(facts, expected.kind, expected.dim);
    REQUIRE(check);
    CHECK(check->value == expected.value);
    CHECK(check->label == expected.label);
    CHECK(check->input_name == "arg4_1");
    CHECK(check->input_index == 0);
  }
  const auto* device = find_check(facts, InputCheckKind::device_type);
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

TEST_CASE(
    "embedding-device-assert: every source-nodes comment, also those before direct ATen calls") {
  const WrapperFacts facts = parse_case("embedding-device-assert");
  const auto linear = std::find_if(
      facts.source_node_comments.begin(), facts.source_node_comments.end(),
      [](const auto& c) { return c.nodes == std::vector<std::string>{"embedding", "linear"}; });
  REQUIRE(linear != facts.source_node_comments.end());
  CHECK(std::find(linear->aten_ops.begin(), linear->aten_ops.end(), "aten.addmm") !=
        linear->aten_ops.end());
  CHECK(linear->line > 0);
  CHECK(facts.source_node_comments.size() >= facts.kernel_calls.size());
}

TEST_CASE("printer1-nan-dumps: mode 1's save calls, each with its phase, kernel, arg and line") {
  const WrapperFacts facts = parse_case("printer1-nan-dumps");
  REQUIRE(facts.printer_calls.size() == 16);
  const model::PrinterCall& first = facts.printer_calls.front();
  CHECK(first.kind == model::PrinterCallKind::save);
  CHECK(first.phase == model::PrintPhase::before_launch);
  CHECK(first.kernel == "triton_poi_fused_log_mul_0");
  CHECK(first.arg == "arg3_1");
  CHECK(first.value == "arg3_1");
  CHECK(first.line == 908);
  const std::string text = wrapper_text("printer1-nan-dumps");
  for (const auto& call : facts.printer_calls) {
    CHECK(call.kind == model::PrinterCallKind::save);
    CHECK(call.phase != model::PrintPhase::model_inputs);
    // Each is at its line, as the wrapper has it.
    CHECK(line_of(text, call.line).find("\"" + call.kernel + "\"") != std::string::npos);
  }
  const auto after_mm = std::count_if(facts.printer_calls.begin(), facts.printer_calls.end(),
                                      [](const model::PrinterCall& call) {
                                        return call.kernel == "aoti_torch_cuda_mm_out" &&
                                               call.phase == model::PrintPhase::after_launch;
                                      });
  CHECK(after_mm == 2);
  // The calls between a source-nodes comment and its launch leave the launch its nodes.
  const model::KernelCall* log_mul = find_call(facts, "triton_poi_fused_log_mul_0");
  REQUIRE(log_mul);
  CHECK(log_mul->source_nodes == std::vector<std::string>{"log", "mul"});
}

TEST_CASE("mode 2's print calls: tensors, model inputs and scalars") {
  const std::string text =
      "#include <torch/csrc/inductor/aoti_runtime/interface.h>\n"
      "void AOTInductorModel::run_impl() {\n"
      "    aoti_torch_print_tensor_handle(arg8_1, \"aoti_model_inputs - arg8_1\");\n"
      "    aoti_torch_print_tensor_handle(buf8, \"before_launch - triton_per_fused_sum_2 - "
      "buf8\");\n"
      "    printf(\"[  before_launch - triton_per_fused_sum_2 - 48L: %ld  ]\", 48L); "
      "printf(\"\\\\n\");\n"
      "    aoti_torch_print_tensor_handle(buf8, \"after_launch - triton_per_fused_sum_2 - "
      "buf8\");\n"
      "    aoti_torch_print_tensor_handle(buf9, \"somewhere - buf9\");\n"
      "    aoti_torch_save_tensor_handle(buf9, \"buf9\", \"aoti_model_inputs\", \"k\");\n"
      "}\n";
  const auto facts = parse_wrapper(text, k_where);
  REQUIRE(facts);
  REQUIRE(facts->printer_calls.size() == 4);  // the last two are not the printer's forms
  const auto& input = facts->printer_calls[0];
  CHECK(input.kind == model::PrinterCallKind::print);
  CHECK(input.phase == model::PrintPhase::model_inputs);
  CHECK(input.kernel.empty());
  CHECK(input.arg == "arg8_1");
  CHECK(input.line == 3);
  CHECK(facts->printer_calls[1].kernel == "triton_per_fused_sum_2");
  const auto& scalar = facts->printer_calls[2];
  CHECK(scalar.kind == model::PrinterCallKind::print_scalar);
  CHECK(scalar.arg == "48L");
  CHECK(scalar.value == "48L");
  CHECK(facts->printer_calls[3].phase == model::PrintPhase::after_launch);

  // A package built with mode 2, where the shared corpus seeds are present.
  const auto seed = source_dir().parent_path() / "shared/corpus-seed/ranker-printer2/model.pt2";
  if (!std::filesystem::exists(seed)) {
    MESSAGE("skipped: " << seed.string() << " is absent");
    return;
  }
  int error = 0;
  zip_t* archive = zip_open(seed.c_str(), ZIP_RDONLY, &error);
  REQUIRE(archive);
  std::string wrapper;
  for (zip_int64_t i = 0; i < zip_get_num_entries(archive, 0); ++i) {
    const std::string name = zip_get_name(archive, static_cast<zip_uint64_t>(i), 0);
    if (!name.ends_with(".wrapper.cpp")) continue;
    zip_stat_t stat;
    zip_stat_index(archive, static_cast<zip_uint64_t>(i), 0, &stat);
    wrapper.resize(stat.size);
    zip_file_t* file = zip_fopen_index(archive, static_cast<zip_uint64_t>(i), 0);
    zip_fread(file, wrapper.data(), stat.size);
    zip_fclose(file);
  }
  zip_close(archive);
  const auto ranker = parse_wrapper(wrapper, k_where);
  REQUIRE(ranker);
  const auto& calls = ranker->printer_calls;
  const auto at = [&](int line) {
    return std::find_if(calls.begin(), calls.end(), [&](const auto& c) { return c.line == line; });
  };
  REQUIRE(at(1116) != calls.end());
  CHECK(at(1116)->phase == model::PrintPhase::model_inputs);
  CHECK(at(1116)->arg == "arg8_1");
  REQUIRE(at(1204) != calls.end());
  CHECK(at(1204)->kind == model::PrinterCallKind::print_scalar);
  CHECK(at(1204)->arg ==
        "triton_per_fused_add_addmm_embedding_native_layer_norm_sum_view_2_xnumel");
  REQUIRE(at(1213) != calls.end());
  CHECK(at(1213)->phase == model::PrintPhase::after_launch);
  CHECK(at(1213)->arg == "bias_weight");
  CHECK(std::all_of(calls.begin(), calls.end(),
                    [](const auto& c) { return c.kind != model::PrinterCallKind::save; }));
}
