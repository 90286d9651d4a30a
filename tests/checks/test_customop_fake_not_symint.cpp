// customop.fake-not-symint: unit tests on hand-built Cases and the corpus cases it is about.
#include <doctest/doctest.h>

#include "checks/customop/fake_not_symint.hpp"
#include "tests/checks/check_test.hpp"

using namespace aoti::test;

TEST_CASE("customop.fake-not-symint: the generator's hard-coded pad_rows fake") {
  const auto found = run_check<CustomopFakeNotSymintCheck>(
      load_case({(aoti::test::corpus_dir() / "generate" / "aoti_gen.py").string()}));
  REQUIRE(found.size() == 1);
  CHECK(mentions(found[0], "seed::pad_rows"));
  CHECK(run_check("customop.meta-not-symint", corpus("healthy-cuda-dynamic")).empty());
}
