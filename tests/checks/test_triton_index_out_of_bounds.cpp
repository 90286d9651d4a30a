// triton.index-out-of-bounds: unit tests on hand-built Cases and the corpus cases it is about.
#include <doctest/doctest.h>

#include "checks/triton/index_out_of_bounds.hpp"
#include "tests/checks/check_test.hpp"
#include "torch/index_assert.hpp"

using namespace aoti::test;
using namespace aoti::torch;

namespace {

// A CUDA or CPU model with input `arg0_1` (the table, dim 0 = s0 in [2, 64]), the ids `arg1_1`, a
// constant `table` [1000, 32], and one kernel launched as `launch` with `args`.
Case assert_case(TritonKernel kernel, std::string launch, std::vector<std::string> args,
                 std::string message) {
  Case c = cuda_case();
  auto& w = *c.models[0].wrapper;
  w.inputs.push_back({.index = 1, .name = "arg1_1", .line = 11});
  WrapperConstant table;
  table.name = "table";
  table.original_fqn = "table";
  table.shape = {1000, 32};
  table.line = 50;
  w.constants.push_back(table);
  KernelCall call;
  call.kernel = kernel.name;
  call.args = std::move(args);
  call.line = 200;
  call.text = std::move(launch);
  w.kernels.push_back(std::move(kernel));
  w.kernel_calls.push_back(std::move(call));
  LogEvent e = event(LogEventKind::triton_assert, message);
  e.text = "Error: " + message;
  c.log_events.push_back(std::move(e));
  return c;
}

TritonAssert assert_line(std::string text, std::string message, int line) {
  TritonAssert a;
  a.text = std::move(text);
  a.message = std::move(message);
  a.line = line;
  if (const auto form = parse_index_assert(a.message))
    a.index_var = form->index_var, a.bound = form->upper;
  return a;
}

TritonLoad access_line(std::string var, std::string pointer, std::string offset, int line,
                       std::string text, bool store = false) {
  TritonLoad l;
  l.var = std::move(var);
  l.pointer = std::move(pointer);
  l.offset = std::move(offset);
  l.line = line;
  l.text = std::move(text);
  l.is_store = store;
  return l;
}

}  // namespace

TEST_CASE("triton.index-out-of-bounds") {
  SUBCASE("embedding-device-assert: kernel, ids input and the bound 1000 = rows of emb.weight") {
    const auto found = run_check<TritonIndexOutOfBoundsCheck>(corpus("embedding-device-assert"));
    REQUIRE(found.size() == 1);
    CHECK(found[0].explains_failure);
    CHECK(mentions(found[0], "triton_poi_fused_embedding_0"));
    CHECK(mentions(found[0], "arg3_1"));
    CHECK(mentions(found[0], "1000"));
    CHECK(mentions(found[0], "emb.weight"));
    CHECK(mentions(found[0],
                   "AOT_INDUCTOR_FILTERED_KERNELS_TO_PRINT=\"triton_poi_fused_embedding_0\""));
  }
  SUBCASE("a ksN bound is traced to the input dim through the wrapper symbol") {
    Case c = cuda_case();
    auto& w = *c.models[0].wrapper;
    TritonKernel k;
    k.name = "triton_poi_fused_index_0";
    k.params = {"in_ptr0", "out_ptr0", "ks0", "xnumel"};
    k.loads.push_back({"tmp0", "in_ptr0", "x0", 100});
    k.assignments["tmp3"] = "tl.where(tmp2, tmp1, tmp0)";
    k.asserts.push_back(
        {"index out of bounds: 0 <= tmp3 < ks0", "(0 <= tmp3) & (tmp3 < ks0)", "tmp3", "ks0", 105});
    w.kernels.push_back(k);
    w.kernel_calls.push_back({"triton_poi_fused_index_0",
                              {"arg0_1", "buf0", "s0", "16L"},
                              {"index"},
                              {"aten.index"},
                              200});
    c.log_events.push_back(
        event(LogEventKind::triton_assert, "index out of bounds: 0 <= tmp3 < ks0"));
    const auto found = run_check<TritonIndexOutOfBoundsCheck>(c);
    REQUIRE(found.size() == 1);
    CHECK(mentions(found[0], "`s0`"));
    CHECK(mentions(found[0], "size 0 of model input `arg0_1`"));
    CHECK(mentions(found[0], "[2, 64]"));
  }
  SUBCASE("an assert no package holds is still reported, without a kernel") {
    Case c = cuda_case();
    c.log_events.push_back(
        event(LogEventKind::triton_assert, "index out of bounds: 0 <= tmp9 < 7"));
    const auto found = run_check<TritonIndexOutOfBoundsCheck>(c);
    REQUIRE(found.size() == 1);
    CHECK(found[0].confidence < 0.9);
  }
}

TEST_CASE(
    "triton.index-out-of-bounds on the real core of embedding-device-assert: the abort is evidence "
    "of the index error") {
  const auto found = run_check<TritonIndexOutOfBoundsCheck>(corpus("embedding-device-assert"));
  REQUIRE(found.size() == 1);
  CHECK(mentions(found[0], "SIGABRT"));
}

TEST_CASE("triton.index-out-of-bounds: every assert form, traced, with no holes") {
  SUBCASE("the corpus: literal, kernel parameter, expression; Triton and C++") {
    struct Expected {
      const char* name;
      const char* title;
      std::vector<std::string> traced;
    };
    const Expected cases[] = {
        {"embedding-device-assert",
         "Index out of bounds in Triton kernel `triton_poi_fused_embedding_0`: `0 <= tmp4 < 1000` "
         "failed",
         {"the bound `1000` is 1000 = dim 0 of constant `emb.weight` [1000, 32]",
          "model input 0 `arg3_1`"}},
        {"index-select-empty",
         "Index out of bounds in Triton kernel `triton_poi_fused_index_select_mul_0`: `0 <= tmp4 < "
         "ks0` failed",
         {"the bound `ks0` is a kernel parameter: `ks0` is bound at the launch to `s77` = size 0 "
          "of model input `arg0_1`",
          "model input 1 `arg1_1`"}},
        {"flat-index-product-bound",
         "Index out of bounds in Triton kernel `triton_poi_fused_index_mul_view_0`: `0 <= tmp4 < "
         "ks0*ks1` failed",
         {"the bound `ks0*ks1` is an expression of sizes: `ks0` is bound at the launch to `s27` = "
          "size 1 of model input "
          "`arg0_1`",
          "`ks1` is bound at the launch to `s77` = size 0 of model input `arg0_1`"}},
        {"cpu-index-check",
         "Index out of bounds in C++ kernel `cpp_fused_embedding_mul_0`: `0 <= tmp7 < 1000L` "
         "failed",
         {"the bound `1000L` is 1000 = dim 0 of constant `emb.weight` [1000, 32]",
          "model input 0 `arg1_1`"}},
    };
    for (const auto& expected : cases) {
      CAPTURE(expected.name);
      const auto found = run_check<TritonIndexOutOfBoundsCheck>(corpus(expected.name));
      REQUIRE(found.size() == 1);
      CHECK(found[0].title == expected.title);
      for (const auto& t : expected.traced) CHECK(mentions(found[0], t));
      check_no_holes(found[0]);
    }
  }
  SUBCASE(
      "a C++ check is quoted from <hash>.kernel.cpp at its own line, the launch from the wrapper") {
    const auto found = run_check<TritonIndexOutOfBoundsCheck>(corpus("cpu-index-check"));
    REQUIRE(found.size() == 1);
    const auto check =
        std::find_if(found[0].evidence.begin(), found[0].evidence.end(),
                     [](const Evidence& e) { return e.excerpt.starts_with("AOTI_TORCH_CHECK("); });
    REQUIRE(check != found[0].evidence.end());
    CHECK(check->where.entry.ends_with(".kernel.cpp"));
    CHECK(check->where.line == 26);
    CHECK(
        check->excerpt ==
        R"(AOTI_TORCH_CHECK((0 <= tmp7) & (tmp7 < 1000L), "index out of bounds: 0 <= tmp7 < 1000L");)");
    const auto launch = std::find_if(
        found[0].evidence.begin(), found[0].evidence.end(),
        [](const Evidence& e) { return e.excerpt.starts_with("cpp_fused_embedding_mul_0("); });
    REQUIRE(launch != found[0].evidence.end());
    CHECK(launch->where.entry.ends_with(".wrapper.cpp"));
    // The read-the-kernel command shows the kernel file, not the wrapper.
    CHECK(mentions(found[0], ".kernel.cpp' | sed -n '4,37p'"));
    CHECK_FALSE(mentions(found[0], "CUDA_LAUNCH_BLOCKING"));
  }
  SUBCASE("without the package, the trace's kernel dump is quoted at the trace's own lines") {
    const auto dir = aoti::test::corpus_case("cpu-index-check");
    std::string trace;
    for (const auto& entry : std::filesystem::directory_iterator(dir / "trace"))
      trace = entry.path().string();
    const auto found =
        run_check<TritonIndexOutOfBoundsCheck>(load_case({(dir / "output.txt").string(), trace}));
    REQUIRE(found.size() == 1);
    CHECK(found[0].title ==
          "Index out of bounds in C++ kernel `cpp_fused_embedding_mul_0`: `0 <= tmp7 < 1000L` "
          "failed");
    const auto check =
        std::find_if(found[0].evidence.begin(), found[0].evidence.end(),
                     [](const Evidence& e) { return e.excerpt.starts_with("AOTI_TORCH_CHECK("); });
    REQUIRE(check != found[0].evidence.end());
    CHECK(check->where.artifact == trace);
    const std::string text = aoti::test::read_file(trace);
    std::size_t begin = 0;
    for (int i = 1; i < check->where.line; ++i) begin = text.find('\n', begin) + 1;
    const std::string line = text.substr(begin, text.find('\n', begin) - begin);
    CHECK(line.find(check->excerpt) != std::string::npos);
  }
  SUBCASE("upper side only, a literal: the table's dim") {
    TritonKernel k;
    k.name = "triton_poi_fused_index_0";
    k.params = {"in_ptr0", "in_ptr1", "out_ptr0", "xnumel"};
    k.loads.push_back(
        access_line("tmp0", "in_ptr0", "x1", 100, "tmp0 = tl.load(in_ptr0 + (x1), xmask)"));
    k.assignments["tmp6"] = "triton_helpers.maximum(tmp0, tmp1)";
    k.asserts.push_back(assert_line(
        R"(tl.device_assert((tmp6 < 1000) | ~(ymask), "index out of bounds: tmp6 < 1000"))",
        "index out of bounds: tmp6 < 1000", 104));
    k.loads.push_back(access_line("tmp8", "in_ptr1", "x0 + 32*tmp6", 105,
                                  "tmp8 = tl.load(in_ptr1 + (x0 + 32*tmp6), xmask)"));
    const Case c = assert_case(
        k, "call_triton_poi_fused_index_0(arg1_1, table, buf0, 32L, stream);",
        {"arg1_1", "table", "buf0", "32L", "stream"}, "index out of bounds: tmp6 < 1000");
    const auto found = run_check<TritonIndexOutOfBoundsCheck>(c);
    REQUIRE(found.size() == 1);
    CHECK(found[0].title ==
          "Index out of bounds in Triton kernel `triton_poi_fused_index_0`: `tmp6 < 1000` failed");
    CHECK(mentions(found[0], "The index `tmp6` comes from the values of model input 1 `arg1_1`"));
    CHECK(mentions(found[0], "the bound `1000` is 1000 = dim 0 of constant `table` [1000, 32]"));
    CHECK(mentions(found[0], "int(x.max()) < 1000,"));
    check_no_holes(found[0]);
  }
  SUBCASE("lower side only: a negative index, no bound to trace") {
    TritonKernel k;
    k.name = "triton_poi_fused_index_0";
    k.params = {"in_ptr0", "in_ptr1", "out_ptr0", "xnumel"};
    k.loads.push_back(
        access_line("tmp0", "in_ptr0", "x1", 100, "tmp0 = tl.load(in_ptr0 + (x1), xmask)"));
    k.assignments["tmp6"] = "tl.where(tmp5, tmp4, tmp2)";
    k.assignments["tmp2"] = "triton_helpers.minimum(tmp0, tmp1)";
    k.asserts.push_back(
        assert_line(R"(tl.device_assert((0 <= tmp6) | ~(ymask), "index out of bounds: 0 <= tmp6"))",
                    "index out of bounds: 0 <= tmp6", 104));
    const Case c =
        assert_case(k, "call_triton_poi_fused_index_0(arg1_1, table, buf0, 32L, stream);",
                    {"arg1_1", "table", "buf0", "32L", "stream"}, "index out of bounds: 0 <= tmp6");
    const auto found = run_check<TritonIndexOutOfBoundsCheck>(c);
    REQUIRE(found.size() == 1);
    CHECK(found[0].title ==
          "Index out of bounds in Triton kernel `triton_poi_fused_index_0`: `0 <= tmp6` failed");
    CHECK(
        mentions(found[0],
                 "the assert checks the lower side only (`0 <= tmp6`), so the index was negative"));
    CHECK(mentions(found[0], "assert int(x.min()) >= 0"));
    check_no_holes(found[0]);
  }
  SUBCASE("a vectorized C++ check of the upper side against a kernel parameter") {
    TritonKernel k;
    k.name = "cpp_fused_index_0";
    k.language = KernelLanguage::cpp;
    k.source = Location{"m.pt2", "model/x.kernel.cpp", 0};
    k.params = {"in_ptr0", "in_ptr1", "out_ptr0", "ks0"};
    k.loads.push_back(access_line("tmp0", "in_ptr0", "static_cast<int64_t>(x0)", 17,
                                  "auto tmp0 = at::vec::VectorizedN<int64_t,2>::loadu(in_ptr0 + "
                                  "static_cast<int64_t>(x0), static_cast<int64_t>(16));"));
    for (auto& l : k.loads) l.scope = 1;
    k.assignments["tmp10@1"] = "tmp0";
    TritonAssert a = assert_line(
        R"(AOTI_TORCH_CHECK((at::vec::VecMask<int64_t,2>(tmp10 < at::vec::VectorizedN<int64_t,2>(ks0))).all_masked(), "index out of bounds: tmp10 < ks0");)",
        "index out of bounds: tmp10 < ks0", 48);
    a.scope = 1;
    k.asserts.push_back(a);
    Case c = assert_case(k,
                         "cpp_fused_index_0((const int64_t*)(arg1_1.data_ptr()), (const "
                         "float*)(arg0_1.data_ptr()), (float*)(buf0.data_ptr()), s0);",
                         {"(const int64_t*)(arg1_1.data_ptr())",
                          "(const float*)(arg0_1.data_ptr())", "(float*)(buf0.data_ptr())", "s0"},
                         "index out of bounds: tmp10 < ks0");
    c.log_events[0].kernel = "cpp_fused_index_0";
    const auto found = run_check<TritonIndexOutOfBoundsCheck>(c);
    REQUIRE(found.size() == 1);
    CHECK(found[0].title ==
          "Index out of bounds in C++ kernel `cpp_fused_index_0`: `tmp10 < ks0` failed");
    CHECK(mentions(found[0],
                   "`tmp10` is computed from `tmp0`, loaded from `in_ptr0`, which the launch binds "
                   "to `arg1_1` (model input 1)"));
    CHECK(mentions(found[0],
                   "`ks0` is bound at the launch to `s0` = size 0 of model input `arg0_1` "
                   "(declared in [2, 64])"));
    const auto quoted = std::find_if(found[0].evidence.begin(), found[0].evidence.end(),
                                     [](const Evidence& e) { return e.where.line == 48; });
    REQUIRE(quoted != found[0].evidence.end());
    CHECK(quoted->where.entry == "model/x.kernel.cpp");
    check_no_holes(found[0]);
  }
  SUBCASE("an expression bound `1 + ks0`") {
    TritonKernel k;
    k.name = "triton_poi_fused_cat_index_0";
    k.params = {"in_ptr0", "in_ptr1", "out_ptr0", "ks0", "ynumel", "xnumel"};
    k.loads.push_back(
        access_line("tmp0", "in_ptr0", "y0", 100,
                    "tmp0 = tl.load(in_ptr0 + (y0), ymask, eviction_policy='evict_last')"));
    k.assignments["tmp4"] = "tl.where(tmp3, tmp2, tmp0)";
    k.asserts.push_back(assert_line(
        R"(tl.device_assert(((0 <= tmp4) & (tmp4 < 1 + ks0)) | ~(ymask), "index out of bounds: 0 <= tmp4 < 1 + ks0"))",
        "index out of bounds: 0 <= tmp4 < 1 + ks0", 104));
    const Case c =
        assert_case(k, "call_triton_poi_fused_cat_index_0(arg1_1, buf1, buf0, s0, s1, 8L, stream);",
                    {"arg1_1", "buf1", "buf0", "s0", "s1", "8L", "stream"},
                    "index out of bounds: 0 <= tmp4 < 1 + ks0");
    const auto found = run_check<TritonIndexOutOfBoundsCheck>(c);
    REQUIRE(found.size() == 1);
    CHECK(found[0].title ==
          "Index out of bounds in Triton kernel `triton_poi_fused_cat_index_0`: `0 <= tmp4 < 1 + "
          "ks0` failed");
    CHECK(mentions(found[0],
                   "the bound `1 + ks0` is an expression of sizes: `ks0` is bound at the launch to "
                   "`s0` = size 0 "
                   "of model input `arg0_1`"));
    check_no_holes(found[0]);
  }
  SUBCASE("asserts nobody's package holds: named by where they come from") {
    Case c = cuda_case();
    c.log_events.push_back(
        event(LogEventKind::triton_assert, "index out of bounds: 0 <= tmp7 < 1000L"));
    c.log_events.back().kernel = "cpp_fused_embedding_mul_0";
    c.log_events.push_back(
        event(LogEventKind::triton_assert,
              "-sizes[i] <= index && index < sizes[i] && \"index out of bounds\""));
    c.log_events.back().source_file = "/pytorch/aten/src/ATen/native/cuda/IndexKernel.cu";
    c.log_events.push_back(event(LogEventKind::triton_assert, "index out of bounds: tmp2 < 2048"));
    const auto found = run_check<TritonIndexOutOfBoundsCheck>(c);
    REQUIRE(found.size() == 3);
    CHECK(found[0].title ==
          "A C++ kernel (`cpp_fused_embedding_mul_0`) failed `index out of bounds: 0 <= tmp7 < "
          "1000L`");
    CHECK(found[1].title ==
          "An ATen CUDA kernel (`IndexKernel.cu`) hit `-sizes[i] <= index && index < sizes[i] && "
          "\"index out of bounds\"`");
    CHECK(found[2].title == "A Triton kernel hit `index out of bounds: tmp2 < 2048`");
    for (auto f : found) {
      f.evidence.clear();  // the hand-made events have no log line to quote
      check_no_holes(f);
    }
  }
}
