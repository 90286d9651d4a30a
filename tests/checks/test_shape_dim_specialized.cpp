// shape.dim-specialized: unit tests on hand-built Cases and the corpus cases it is about.
#include <doctest/doctest.h>

#include "checks/shape/dim_specialized.hpp"
#include "tests/checks/check_test.hpp"

using namespace aoti::test;

TEST_CASE("shape.dim-specialized") {
  SUBCASE("cpp-meta-sizes: batch specialized to 8, the custom op named") {
    const auto found = run_check<ShapeDimSpecializedCheck>(corpus("cpp-meta-sizes"));
    REQUIRE(found.size() == 1);
    CHECK(mentions(found[0], "`batch`"));
    CHECK(mentions(found[0], "8"));
    CHECK(mentions(found[0], "heldout_cpp::scale_rows"));
  }
  SUBCASE("nothing without an export error") {
    CHECK(run_check<ShapeDimSpecializedCheck>(corpus("healthy-cuda-dynamic")).empty());
  }
}
