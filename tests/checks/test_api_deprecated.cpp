// api.deprecated: unit tests on hand-built Cases and the corpus cases it is about.
#include <doctest/doctest.h>

#include "checks/api/deprecated.hpp"
#include "tests/checks/check_test.hpp"

using namespace aoti::test;

TEST_CASE("api.deprecated") {
  Case c = cuda_case();
  c.log_events.push_back(event(LogEventKind::deprecated_api, "torch._export.aot_load"));
  const auto found = run_check<ApiDeprecatedCheck>(c);
  REQUIRE(found.size() == 1);
  CHECK(mentions(found[0], "aoti_load_package"));
}
