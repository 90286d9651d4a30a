// shape.data-dependent-guard: unit tests on hand-built Cases and the corpus cases it is about.
#include <doctest/doctest.h>

#include "checks/shape/data_dependent_guard.hpp"
#include "tests/checks/check_test.hpp"

using namespace aoti::test;

TEST_CASE("shape.data-dependent-guard from the trace") {
  Case c = cuda_case();
  TraceFacts trace;
  trace.artifact = "trace.log";
  trace.data_dependent.push_back(
      {{"trace.log", 12, "", 0}, "guard_on_data_dependent_error", "Eq(u0, 0)", "", "", {}});
  c.traces.push_back(trace);
  const auto found = run_check<ShapeDataDependentGuardCheck>(c);
  REQUIRE(found.size() == 1);
  CHECK(mentions(found[0], "Eq(u0, 0)"));
}
