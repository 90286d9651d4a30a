// shape.input-contract-violation: unit tests on hand-built Cases and the corpus cases it is about.
#include <doctest/doctest.h>

#include "checks/shape/input_contract_violation.hpp"
#include "tests/checks/check_test.hpp"

using namespace aoti::test;

TEST_CASE("shape.input-contract-violation") {
  const auto found = run_check<ShapeInputContractViolationCheck>(corpus("input-check-errors"));
  REQUIRE(found.size() == 3);
  const auto has = [&](const std::string& text) {
    return std::any_of(found.begin(), found.end(),
                       [&](const Finding& f) { return mentions(f, text); });
  };
  CHECK(has("4096"));
  CHECK(has("[2, 1024]"));
  CHECK(has("float16"));
  CHECK(has("x.contiguous()"));
  for (const auto& f : found) CHECK(mentions(f, "arg4_1"));
}
