// customop.fake-missing: unit tests on hand-built Cases and the corpus cases it is about.
#include <doctest/doctest.h>

#include "checks/customop/fake_missing.hpp"
#include "tests/checks/check_test.hpp"
#include "torch/error_messages.hpp"

using namespace aoti::test;

TEST_CASE("customop.fake-missing from the trace") {
  Case c = cuda_case();
  c.traces.push_back(fake_kernel_trace());
  const auto found = run_check<CustomopFakeMissingCheck>(c);
  REQUIRE(found.size() == 2);  // the mismatched record is customop.fake-mismatch's
  CHECK(mentions(found[0], "mylib::nofake"));
  CHECK(mentions(found[0], "@torch.library.register_fake(\"mylib::nofake\")"));
  // An op recorded with its overload ("tt.nofake.default") is spelled once, not `.default.default`.
  CHECK(mentions(found[1], "@torch.library.register_fake(\"tt::nofake\")"));
  CHECK_FALSE(mentions(found[1], ".default.default"));
}

TEST_CASE("customop.fake-missing from a trace alone: the failure record's whole reason") {
  // The trace of a real failed export (no missing_fake_kernel record: that is draft_export's): the
  // compilation_metrics fail_reason names the op several lines into Dynamo's message.
  const auto found =
      analyze_paths({(corpus_case("export-custom-op-no-fake-strict") / "trace").string()});
  REQUIRE(!found.empty());
  CHECK(found[0].check == "customop.fake-missing");
  CHECK(found[0].title == "Custom op `corpus::row_scale` has no fake (meta) kernel");
  CHECK(mentions(
      found[0],
      "fail_reason: Developer debug context: unsupported operator: corpus.row_scale.default"));
  CHECK(mentions(found[0], "@torch.library.register_fake(\"corpus::row_scale\")"));
  CHECK(first_of(found, "export.failed") == nullptr);
  check_no_holes(found[0]);
}

TEST_CASE("customop.fake-missing: an op named further down a wrapper's message") {
  // The log of the same run: the op is named by the NotImplementedError of the chain.
  const auto found =
      analyze_paths({(corpus_case("export-custom-op-no-fake-strict") / "stderr.txt").string()});
  REQUIRE(!found.empty());
  CHECK(found[0].check == "customop.fake-missing");
  CHECK(mentions(found[0], "corpus::row_scale"));
}

TEST_CASE("customop.fake-missing from a trace alone: make_fx stopped at a custom op (inferred)") {
  // Non-strict export: the trace's only failure is make_fx_fail_partial, whose partial graph ends
  // with the call of the op it was tracing.
  const auto found =
      analyze_paths({(corpus_case("export-custom-op-no-fake-nonstrict") / "trace").string()});
  REQUIRE(!found.empty());
  CHECK(found[0].check == "customop.fake-missing");
  CHECK(found[0].title == "Custom op `corpus::row_scale` has no fake (meta) kernel (inferred)");
  CHECK(found[0].confidence < 0.6);
  CHECK(mentions(found[0], "aoti_gen.py:371"));
  check_no_holes(found[0]);
}

TEST_CASE("customop.fake-missing: c10's dispatcher found no Meta kernel for a custom op") {
  // c10's message for an op with no kernel for the Meta key a trace runs; ATen's ops have one.
  const auto found = analyze_log(
      "Traceback (most recent call last):\n"
      "  File \"/home/me/export.py\", line 12, in <module>\n"
      "    ep = torch.export.export(model, (x,))\n"
      "NotImplementedError: Could not run 'mylib::fused_norm' with arguments from the 'Meta' "
      "backend. This could be because the operator doesn't exist for this backend, or was omitted "
      "during the selective/custom build process (if using custom build).\n");
  REQUIRE(!found.empty());
  CHECK(found[0].check == "customop.fake-missing");
  CHECK(found[0].title == "Custom op `mylib::fused_norm` has no fake (meta) kernel");
  CHECK(aoti::torch::problem_in_message(
            "Could not run 'aten::nonzero' with arguments from the 'Meta' backend.") == "");
}
