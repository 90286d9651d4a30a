// customop.fake-mismatch: unit tests on hand-built Cases and the corpus cases it is about.
#include <doctest/doctest.h>

#include "checks/customop/fake_mismatch.hpp"
#include "tests/checks/check_test.hpp"

using namespace aoti::test;

TEST_CASE("customop.fake-mismatch from the trace") {
  Case c = cuda_case();
  TraceFacts trace;
  trace.artifact = "trace.log";
  trace.fake_kernels.push_back(
      {{"trace.log", 20, "", 0}, "missing_fake_kernel", "mylib::nofake", ""});
  trace.fake_kernels.push_back(
      {{"trace.log", 30, "", 0}, "mismatched_fake_kernel", "mylib::liar", "shape [4] vs [5]"});
  c.traces.push_back(trace);
  const auto found = run_check<CustomopFakeMismatchCheck>(c);
  REQUIRE(found.size() == 1);
  CHECK(mentions(found[0], "shape [4] vs [5]"));
  CHECK_FALSE(found[0].explains_failure);
}
