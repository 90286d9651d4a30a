// shape.input-checks-off: unit tests on hand-built Cases and the corpus cases it is about.
#include <doctest/doctest.h>

#include "checks/shape/input_checks_off.hpp"
#include "tests/checks/check_test.hpp"

using namespace aoti::test;

TEST_CASE("shape.input-checks-off") {
  SUBCASE("healthy-cuda-dynamic's package alone: a note naming the unenforced range") {
    const auto found = run_check<ShapeInputChecksOffCheck>(
        load_case({aoti::test::corpus_package("healthy-cuda-dynamic").string()}));
    REQUIRE(found.size() == 1);
    CHECK(found[0].severity == Severity::note);
    CHECK(mentions(found[0], "[2, 1024]"));
    CHECK(mentions(found[0], "AOTI_RUNTIME_CHECK_INPUTS=1"));
  }
  SUBCASE(
      "healthy-cuda-dynamic with its logs: the run used batch 4096 outside [2, 1024], a warning") {
    const auto found = run_check<ShapeInputChecksOffCheck>(corpus("healthy-cuda-dynamic"));
    REQUIRE(found.size() == 1);
    CHECK(found[0].severity == Severity::warning);
    CHECK(found[0].title.find("dim 0 = 4096, compiled for [2, 1024]") != std::string::npos);
    CHECK(mentions(found[0], "an inference"));
  }
  SUBCASE("a failing run without checks is a warning") {
    const auto found = run_check<ShapeInputChecksOffCheck>(corpus("embedding-device-assert"));
    REQUIRE(found.size() == 1);
    CHECK(found[0].severity == Severity::warning);
  }
  SUBCASE("input-check errors prove the checks were on") {
    CHECK(run_check<ShapeInputChecksOffCheck>(corpus("input-check-errors")).empty());
  }
}
