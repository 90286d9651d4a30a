// device.load-mismatch: unit tests on hand-built Cases and the corpus cases it is about.
#include <doctest/doctest.h>

#include "checks/device/load_mismatch.hpp"
#include "tests/checks/check_test.hpp"

using namespace aoti::test;

TEST_CASE("device.load-mismatch") {
  Case c = cuda_case();
  c.log_events.push_back(event(LogEventKind::out_tensor_device));
  const auto found = run_check<DeviceLoadMismatchCheck>(c);
  REQUIRE(found.size() == 1);
  CHECK(mentions(found[0], "AOTI_DEVICE_KEY = cuda"));
  CHECK(run_check<DeviceLoadMismatchCheck>(corpus("input-check-errors")).empty());
}
