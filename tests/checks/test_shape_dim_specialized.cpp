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

TEST_CASE(
    "shape.dim-specialized: draft_export's guard over a product of dims, with its user line") {
  // pytorch#151094: a reshape's divisibility guard; not read as a dim fixed to 2560.
  const auto found = analyze_wild("pytorch-151094-reshape-guard-specializes-batch");
  REQUIRE(!found.empty());
  CHECK(found[0].check == "shape.dim-specialized");
  CHECK(found[0].title ==
        "Export added the guard `Eq(Mod(s21*s5*s89, 2560), 0)` on the dims of `dht_table`");
  CHECK(mentions(found[0], "dht_table = dht_table.reshape([batch_size, -1])"));
  CHECK(found[0].message.find("constant 2560") == std::string::npos);
}
