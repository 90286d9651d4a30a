// customop.fake-static-shape: unit tests on hand-built Cases and the corpus cases it is about.
#include <doctest/doctest.h>

#include "checks/customop/fake_static_shape.hpp"
#include "tests/checks/check_test.hpp"

using namespace aoti::test;

TEST_CASE("customop.fake-static-shape") {
  SUBCASE(
      "custom-op-fake-static-rows: pad_rows feeds a kernel compiled for 144 = 9 x 16 elements") {
    const auto found =
        run_check<CustomopFakeStaticShapeCheck>(corpus("custom-op-fake-static-rows"));
    REQUIRE(found.size() == 1);
    CHECK(found[0].severity == Severity::error);
    CHECK(mentions(found[0], "heldout::pad_rows"));
    CHECK(mentions(found[0], "144"));
    CHECK(mentions(found[0], "9 rows"));
  }
  SUBCASE("a custom op on a static input is not flagged") {
    // cpp-meta-sizes calls heldout_cpp::scale_rows, but its package is static in every dim.
    CHECK(run_check<CustomopFakeStaticShapeCheck>(corpus("cpp-meta-sizes")).empty());
  }
}
