// customop.meta-not-symint: unit tests on hand-built Cases and the corpus cases it is about.
#include <doctest/doctest.h>

#include "checks/customop/meta_not_symint.hpp"
#include "tests/checks/check_test.hpp"

using namespace aoti::test;

TEST_CASE("customop.meta-not-symint") {
  SUBCASE("cpp-meta-sizes: scale_rows_meta explains the specialization; gather_rows_meta is fine") {
    const auto found = run_check<CustomopMetaNotSymintCheck>(corpus("cpp-meta-sizes"));
    REQUIRE(found.size() == 1);
    CHECK(found[0].explains_failure);
    CHECK(mentions(found[0], "scale_rows_meta"));
    CHECK(mentions(found[0], "x.sym_size(0)"));
    CHECK(mentions(found[0], "at::empty_symint"));
    CHECK_FALSE(mentions(found[0], "gather_rows"));
  }
  SUBCASE("the same source alone: a risk, not the explanation") {
    const auto found = run_check<CustomopMetaNotSymintCheck>(
        load_case({(aoti::test::corpus_case("cpp-meta-sizes") / "heldout_ops.cpp").string()}));
    REQUIRE(found.size() == 1);
    CHECK_FALSE(found[0].explains_failure);
    CHECK(found[0].severity == Severity::warning);
  }
}

TEST_CASE("customop.meta-not-symint from a log: c10 refused sizes() of a symbolic tensor") {
  // c10's TensorImpl message with TORCH_SHOW_CPP_STACKTRACES' frames: the extension's own frame
  // names the kernel.
  const auto found = analyze_log(
      "Traceback (most recent call last):\n"
      "  File \"/home/me/export.py\", line 30, in <module>\n"
      "    ep = torch.export.export(model, (x,), dynamic_shapes={\"x\": {0: batch}})\n"
      "RuntimeError: Cannot call sizes() on tensor with symbolic sizes/strides\n"
      "Exception raised from throw_cannot_call_with_symbolic at "
      "/pytorch/c10/core/TensorImpl.cpp:291 (most recent call first):\n"
      "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x98 (0x7f1 in "
      "/x/site-packages/torch/lib/libc10.so)\n"
      "frame #1: mylib::fused_norm_meta(at::Tensor const&, double) + 0x51 (0x7f3 in "
      "/home/me/build/libmylib.so)\n");
  REQUIRE(!found.empty());
  CHECK(found[0].check == "customop.meta-not-symint");
  CHECK(
      found[0].title.starts_with("`mylib::fused_norm_meta(at::Tensor const&, double)` read "
                                 "concrete sizes (`sizes()`)"));
  CHECK(mentions(found[0], "libmylib.so"));
}
