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
