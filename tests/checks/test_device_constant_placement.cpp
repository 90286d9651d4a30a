// device.constant-placement: unit tests on hand-built Cases and the corpus cases it is about.
#include <doctest/doctest.h>

#include "checks/device/constant_placement.hpp"
#include "tests/checks/check_test.hpp"

using namespace aoti::test;

TEST_CASE("device.constant-placement") {
  SUBCASE("const-cpu-buffer: the host buffer `scale` in a CUDA model, with its _cuda0 copy") {
    const auto found = run_check<DeviceConstantPlacementCheck>(corpus("const-cpu-buffer"));
    REQUIRE(found.size() == 1);
    CHECK(found[0].severity == Severity::warning);
    CHECK(mentions(found[0], "`scale`"));
    CHECK(mentions(found[0], "scale_cuda0"));
  }
  SUBCASE("constants on the model's device are fine") {
    for (const char* name : {"embedding-device-assert", "healthy-cuda-dynamic"})
      CHECK(run_check<DeviceConstantPlacementCheck>(corpus(name)).empty());
  }
  SUBCASE("a Mixed-device constants error makes it an explained error") {
    Case c = cuda_case();
    c.models[0].wrapper->constants.push_back(
        {0, "table", "float32", "cpu", "Parameter", "emb.table", {10, 4}, {4, 1}, 160, false, 50});
    c.log_events.push_back(event(LogEventKind::mixed_device_constants));
    const auto found = run_check<DeviceConstantPlacementCheck>(c);
    REQUIRE(found.size() == 1);
    CHECK(found[0].severity == Severity::error);
    CHECK(found[0].explains_failure);
  }
}
