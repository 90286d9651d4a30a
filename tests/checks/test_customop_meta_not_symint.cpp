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
