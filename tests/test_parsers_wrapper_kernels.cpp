// The kernels embedded in a wrapper: every Triton index-assert form, and the C++ kernels of CPU
// packages (their checks, loads, parameters and launches).
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <utility>

#include "parsers/wrapper/cpp_kernel.hpp"
#include "tests/parsers_wrapper_support.hpp"
#include "torch/index_assert.hpp"

using namespace aoti::test::wrapper;

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
         "def triton_poi_fused_index_0(in_ptr0, in_ptr1, out_ptr0, ks0, ks1, xnumel, XBLOCK : "
         "tl.constexpr):\n"
         "    tmp0 = tl.load(in_ptr0 + (x0), xmask)\n"
         "    " +
         line +
         "\n"
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
      {R"(tl.device_assert((0 <= tmp1) & (tmp1 < 64), "index out of bounds: 0 <= tmp1 < 64"))",
       "tmp1", "0", "64"},
      // common.py, upper side only (the index's range starts at 0).
      {R"(tl.device_assert((tmp6 < 1000) | ~(ymask), "index out of bounds: tmp6 < 1000"))", "tmp6",
       "", "1000"},
      // common.py, lower side only (the range stays below a static size).
      {R"(tl.device_assert((0 <= tmp6) | ~(ymask), "index out of bounds: 0 <= tmp6"))", "tmp6", "0",
       ""},
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
    CHECK(aoti::torch::condition_text(*read) ==
          assertion.message.substr(aoti::torch::k_index_assert_prefix.size()));
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
  CHECK(contains(line_of(text, kernel.source_begin),
                 "extern \"C\"  void  cpp_fused_embedding_mul_0("));
  CHECK(line_of(text, kernel.source_end) == "}");
  REQUIRE(kernel.asserts.size() == 1);
  const auto& check = kernel.asserts[0];
  CHECK(check.line == 26);
  CHECK(
      check.text ==
      R"(AOTI_TORCH_CHECK((0 <= tmp7) & (tmp7 < 1000L), "index out of bounds: 0 <= tmp7 < 1000L");)");
  CHECK(check.message == "index out of bounds: 0 <= tmp7 < 1000L");
  CHECK(check.condition == "(0 <= tmp7) & (tmp7 < 1000L)");
  CHECK(check.index_var == "tmp7");
  CHECK(check.bound == "1000L");
  // The chain back to the ids: tmp7 = convert(tmp6), tmp6 = tmp5, tmp5 = tmp4 ? tmp3 : tmp0.
  CHECK(kernel.assignments.at(aoti::model::scoped_name("tmp7", check.scope)) ==
        "c10::convert<int64_t>(tmp6)");
  CHECK(kernel.assignments.at(aoti::model::scoped_name("tmp5", check.scope)) ==
        "tmp4 ? tmp3 : tmp0");
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
  const std::string text = aoti::test::read_file(aoti::test::source_dir() /
                                                 "tests/data/assert_forms/product-cpu.kernel.cpp");
  const auto kernels = aoti::parsers::wrapper::read_cpp_kernels(text, {"m.pt2", "k.kernel.cpp", 0});
  REQUIRE(kernels.size() == 1);
  const auto& kernel = kernels[0];
  CHECK(kernel.name == "cpp_fused_index_mul_view_0");
  CHECK(kernel.params ==
        std::vector<std::string>{"in_ptr0", "in_ptr1", "out_ptr0", "ks0", "ks1", "ks2"});
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
  // `auto tmp10 =` then a lambda: the value is the lambda's lines, the gather inside is a load of
  // tmp12.
  CHECK(contains(kernel.assignments.at(aoti::model::scoped_name("tmp10", kernel.asserts[0].scope)),
                 "tmp9[x0_inner]"));
  const auto gather = std::find_if(kernel.loads.begin(), kernel.loads.end(),
                                   [](const auto& l) { return l.line == 56; });
  REQUIRE(gather != kernel.loads.end());
  CHECK(gather->var == "tmp12");
  CHECK(gather->pointer == "in_ptr1");
  CHECK(gather->offset == "static_cast<int64_t>(tmp9[x0_inner])");
}

TEST_CASE("C++ loop nests number their temporaries afresh: each keeps its own") {
  const std::string text = aoti::test::read_file(
      aoti::test::source_dir() / "tests/data/assert_forms/index_put-cpu.kernel.cpp");
  const auto kernels = aoti::parsers::wrapper::read_cpp_kernels(text, {"m.pt2", "k.kernel.cpp", 0});
  REQUIRE(kernels.size() == 1);
  const auto& kernel = kernels[0];
  REQUIRE(kernel.asserts.size() == 1);
  const auto& check = kernel.asserts[0];
  CHECK(check.line == 46);
  CHECK(check.bound == "ks0");
  CHECK(check.scope == 2);
  // `auto tmp0` is a copy of x in the first nest (main loop and vector tail) and the index in the
  // second.
  std::set<std::pair<int, std::string>> tmp0;
  for (const auto& load : kernel.loads)
    if (load.var == "tmp0") tmp0.emplace(load.scope, load.pointer);
  CHECK(tmp0 == std::set<std::pair<int, std::string>>{{1, "in_ptr0"}, {2, "in_ptr1"}});
  // The scatter: `atomic_add_vec<float, 2, 1>(out_ptr0, tmp12, tmp9, ...)` writes at tmp12.
  const auto scatter = std::find_if(kernel.loads.begin(), kernel.loads.end(),
                                    [](const auto& l) { return l.line == 50; });
  REQUIRE(scatter != kernel.loads.end());
  CHECK(scatter->is_store);
  CHECK(scatter->offset == "tmp12");
}

TEST_CASE(
    "every C++ check form: AOTI_TORCH_CHECK and TORCH_CHECK, scalar and vectorized, one side or "
    "both") {
  const AssertForm forms[] = {
      // assert_forms.py emb_static / dyn_table / sum on CPU (scalar kernels).
      {R"(AOTI_TORCH_CHECK((0 <= tmp7) & (tmp7 < 1000L), "index out of bounds: 0 <= tmp7 < 1000L");)",
       "tmp7", "0", "1000L"},
      {R"(AOTI_TORCH_CHECK((0 <= tmp7) & (tmp7 < ks1), "index out of bounds: 0 <= tmp7 < ks1");)",
       "tmp7", "0", "ks1"},
      {R"(AOTI_TORCH_CHECK((0 <= tmp7) & (tmp7 < 1L + ks0), "index out of bounds: 0 <= tmp7 < 1L + ks0");)",
       "tmp7", "0", "1L + ks0"},
      // assert_forms.py two_index on CPU (vectorized).
      {R"(AOTI_TORCH_CHECK((at::vec::VecMask<int64_t,2>((at::vec::VectorizedN<int64_t,2>(0) <= tmp20) & (tmp20 < at::vec::VectorizedN<int64_t,2>(32L)))).all_masked(), "index out of bounds: 0 <= tmp20 < 32L");)",
       "tmp20", "0", "32L"},
      // cpp.py `assert_function`: TORCH_CHECK outside AOT mode (torch.compile's C++ kernels).
      {R"(TORCH_CHECK((0 <= tmp7) & (tmp7 < 1000L), "index out of bounds: 0 <= tmp7 < 1000L");)",
       "tmp7", "0", "1000L"},
      // cpp.py `CppVecKernel.indirect_assert`, one side only.
      {R"(AOTI_TORCH_CHECK((at::vec::VecMask<int64_t,2>(tmp10 < at::vec::VectorizedN<int64_t,2>(1000L))).all_masked(), "index out of bounds: tmp10 < 1000L");)",
       "tmp10", "", "1000L"},
      {R"(AOTI_TORCH_CHECK((at::vec::VecMask<int64_t,2>(at::vec::VectorizedN<int64_t,2>(0) <= tmp10)).all_masked(), "index out of bounds: 0 <= tmp10");)",
       "tmp10", "0", ""},
      // common.py through the scalar C++ kernel, one side only.
      {R"(AOTI_TORCH_CHECK(tmp7 < 1000L, "index out of bounds: tmp7 < 1000L");)", "tmp7", "",
       "1000L"},
  };
  for (const auto& form : forms) {
    CAPTURE(form.line);
    const std::string text = std::string(
                                 "extern \"C\"  void  cpp_fused_index_0(const int64_t* in_ptr0,\n"
                                 "                       const int64_t ks0)\n"
                                 "{\n"
                                 "    {\n"
                                 "        auto tmp0 = in_ptr0[static_cast<int64_t>(x0)];\n"
                                 "        ") +
                             form.line + "\n    }\n}\n";
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

TEST_CASE(
    "a CPU wrapper: its C++ launches are read with their line, its declarations are not kernels") {
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
  const aoti::model::Location kernel_file{"model.pt2", "model/data/aotinductor/model/k.kernel.cpp",
                                          0};
  aoti::parsers::wrapper::add_kernel_source(
      with_kernels, aoti::test::corpus_entry_text("cpu-index-check", ".kernel.cpp"), kernel_file);
  REQUIRE(with_kernels.kernels.size() == 1);
  CHECK(with_kernels.kernels[0].source.entry == kernel_file.entry);
  CHECK(with_kernels.kernels[0].asserts.at(0).line == 26);
  // From a trace, the text starts at a later line of the trace file: every line is moved with it.
  WrapperFacts from_trace = facts;
  aoti::parsers::wrapper::add_kernel_source(
      from_trace, aoti::test::corpus_entry_text("cpu-index-check", ".kernel.cpp"),
      {"trace.log", "", 0}, 2159);
  CHECK(from_trace.kernels.at(0).asserts.at(0).line == 2185);
  CHECK(from_trace.kernels.at(0).loads.at(0).line == 2177);
}

TEST_CASE("C++ kernels cut anywhere, or hostile, yield what was read and never hang") {
  const std::string text = aoti::test::read_file(aoti::test::source_dir() /
                                                 "tests/data/assert_forms/product-cpu.kernel.cpp");
  for (std::size_t cut = 0; cut < text.size(); cut += 97) {
    CAPTURE(cut);
    const auto kernels = aoti::parsers::wrapper::read_cpp_kernels(
        std::string_view(text).substr(0, cut), {"k", "", 0});
    CHECK(kernels.size() <= 1);
  }
  // A signature that never closes, a body that never ends, a megabyte check.
  const std::string open_signature =
      "extern \"C\"  void  cpp_fused_x(const float* in_ptr0,\n" + std::string(1u << 20, 'a');
  CHECK(aoti::parsers::wrapper::read_cpp_kernels(open_signature, {"k", "", 0}).empty());
  const std::string endless = "extern \"C\"  void  cpp_fused_x(const float* in_ptr0)\n{\n" +
                              std::string("AOTI_TORCH_CHECK(") + std::string(1u << 20, '(') + "\n";
  const auto read = aoti::parsers::wrapper::read_cpp_kernels(endless, {"k", "", 0});
  REQUIRE(read.size() == 1);
  CHECK(read[0].asserts.empty());
}

// ---- what a GPU core's kernel is matched with ---------------------------------------------------

TEST_CASE("inductor_meta: assert_indirect_indexing and the launch name of a user Triton kernel") {
  const auto inductor = parse_case("embedding-ima-gpu-core");
  const auto* gather = find_kernel(inductor, "triton_poi_fused_embedding_0");
  REQUIRE(gather);
  CHECK(gather->assert_indirect_indexing == false);
  CHECK(gather->launch_name.empty());  // launched by its own name
  CHECK(contains(line_of(wrapper_text("embedding-ima-gpu-core"), gather->inductor_meta_line),
                 "'assert_indirect_indexing': False"));

  // A user kernel `k` is compiled as `k`, launched as `call_k_0(...)`, and may carry comments.
  const auto user = parse_case("user-triton-misaligned-gpu-core");
  const auto* kernel = find_kernel(user, "unpack_swap_pairs_kernel");
  REQUIRE(kernel);
  CHECK(kernel->launch_name == "unpack_swap_pairs_kernel_0");
  CHECK(kernel->assert_indirect_indexing == true);
  CHECK(find_call(user, "unpack_swap_pairs_kernel_0") != nullptr);
  CHECK(kernel->assignments.at("src") == "(buf_ptr + start).to(tl.pointer_type(tl.uint64))");
  CHECK(kernel->assignments.at("start") == "tl.load(start_ptr)");
}
