// customop.fake-mismatch: unit tests on hand-built Cases and the corpus cases it is about.
#include <doctest/doctest.h>

#include "checks/customop/fake_mismatch.hpp"
#include "tests/checks/check_test.hpp"

using namespace aoti::test;

TEST_CASE("customop.fake-mismatch from the trace") {
  Case c = cuda_case();
  c.traces.push_back(fake_kernel_trace());
  const auto found = run_check<CustomopFakeMismatchCheck>(c);
  REQUIRE(found.size() == 1);
  CHECK(mentions(found[0], "shape [4] vs [5]"));
  CHECK_FALSE(found[0].explains_failure);
}

TEST_CASE("customop.fake-mismatch from Inductor's size/stride check of a custom op's output") {
  SUBCASE("the op on the generated code's line above") {
    const auto found = analyze_wild("sglang-36443-rotary-embedding-cpu-fake-stride");
    REQUIRE(!found.empty());
    const Finding& f = found[0];
    CHECK(f.check == "customop.fake-mismatch");
    CHECK(f.title.find("`sgl_kernel::rotary_embedding_cpu`") != std::string::npos);
    CHECK(f.title.find("dim 0: stride 6144 where the graph expects 4096") != std::string::npos);
    CHECK(f.explains_failure);
    check_no_holes(f);
  }
  SUBCASE("the op under the message (`Error in op:`), two dims in the message") {
    const auto found = analyze_wild("pytorch-182328-vllm-moe-forward-fake-stride");
    REQUIRE(!found.empty());
    CHECK(found[0].check == "customop.fake-mismatch");
    CHECK(found[0].title.find("`vllm::moe_forward`") != std::string::npos);
    CHECK(mentions(found[0], "dim 1: size 2880 where the graph expects 3072"));
  }
  SUBCASE("an op of torch's own is not a custom op's fake") {
    const auto found = analyze_log(
        "assert_size_stride(buf1, (8, 8), (8, 1), 'torch.ops.aten.mm.default')\n"
        "AssertionError: expected size 8==8, stride 1==8 at dim=0\n");
    CHECK(first_of(found, "customop.fake-mismatch") == nullptr);
    CHECK_FALSE(found.empty());
  }
}

TEST_CASE("customop.fake-mismatch: torch.library.opcheck's test_faketensor failure") {
  const auto found = analyze_log(
      "torch.testing._internal.optests.generate_tests.OpCheckError: opcheck(op, ...): "
      "test_faketensor failed with\n"
      "Stride mismatch! Strides are (96, 8, 24, 1) and (96, 32, 8, 1) (mismatched at 1)!\n");
  REQUIRE(!found.empty());
  CHECK(found[0].check == "customop.fake-mismatch");
  CHECK(mentions(found[0], "Stride mismatch! Strides are (96, 8, 24, 1)"));
}
