// customop.fake-missing: unit tests on hand-built Cases and the corpus cases it is about.
#include <doctest/doctest.h>

#include "checks/customop/fake_missing.hpp"
#include "tests/checks/check_test.hpp"

using namespace aoti::test;

TEST_CASE("customop.fake-missing from the trace") {
  Case c = cuda_case();
  c.traces.push_back(fake_kernel_trace());
  const auto found = run_check<CustomopFakeMissingCheck>(c);
  REQUIRE(found.size() == 2);  // the mismatched record is customop.fake-mismatch's
  CHECK(mentions(found[0], "mylib::nofake"));
  CHECK(mentions(found[0], "@torch.library.register_fake(\"mylib::nofake\")"));
  // An op recorded with its overload ("tt.nofake.default") is spelled once, not `.default.default`.
  CHECK(mentions(found[1], "@torch.library.register_fake(\"tt::nofake\")"));
  CHECK_FALSE(mentions(found[1], ".default.default"));
}
