// cuda.illegal-memory-access: unit tests on hand-built Cases and the corpus cases it is about.
#include <doctest/doctest.h>

#include "checks/cuda/illegal_memory_access.hpp"
#include "tests/checks/check_test.hpp"

using namespace aoti::test;

TEST_CASE("cuda.illegal-memory-access") {
  Case c = cuda_case();
  c.models[0].wrapper->kernel_calls.push_back({"triton_poi_fused_add_0", {"arg0_1"}, {}, {}, 300});
  c.log_events.push_back(
      event(LogEventKind::cuda_error, "", "an illegal memory access was encountered"));
  const auto found = run_check<CudaIllegalMemoryAccessCheck>(c);
  REQUIRE(found.size() == 1);
  CHECK(mentions(found[0], "triton_poi_fused_add_0"));
  CHECK(mentions(found[0], "CUDA_LAUNCH_BLOCKING=1"));
  CHECK(run_check<CudaIllegalMemoryAccessCheck>(corpus("embedding-device-assert")).empty());
}
