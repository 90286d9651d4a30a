// device.input-mismatch: unit tests on hand-built Cases and the corpus cases it is about.
#include <doctest/doctest.h>

#include "checks/device/input_mismatch.hpp"
#include "checks/support/crash.hpp"
#include "tests/checks/check_test.hpp"

using namespace aoti::test;

TEST_CASE("device.input-mismatch") {
  SUBCASE("input-check-errors: the CPU input to the CUDA package") {
    const auto found = run_check<DeviceInputMismatchCheck>(corpus("input-check-errors"));
    REQUIRE(found.size() == 1);
    CHECK(found[0].explains_failure);
    CHECK(mentions(found[0], "arg4_1"));
    CHECK(mentions(found[0], "cpu"));
    CHECK(mentions(found[0], "cuda"));
  }
  SUBCASE("a same-device runtime error") {
    Case c = cuda_case();
    c.log_events.push_back(event(LogEventKind::tensors_on_different_devices, "", "cuda:0 and cpu"));
    const auto found = run_check<DeviceInputMismatchCheck>(c);
    REQUIRE(found.size() == 1);
    CHECK(mentions(found[0], "cuda:0 and cpu"));
  }
  SUBCASE("nothing without device errors") {
    CHECK(run_check<DeviceInputMismatchCheck>(corpus("healthy-cuda-dynamic")).empty());
  }
}

TEST_CASE(
    "device.input-mismatch on the real core of cpu-package-cuda-input-segv: a CPU kernel on a "
    "device pointer") {
  const Case c = corpus("cpu-package-cuda-input-segv");
  REQUIRE(c.cores.size() == 1);
  CHECK(c.cores[0].fault_kind == "device");
  CHECK(crash_phase(c.cores[0]) == "running the model");
  const auto found = run_check<DeviceInputMismatchCheck>(c);
  REQUIRE(found.size() == 1);
  CHECK(mentions(found[0], "cpp_fused_convolution_0"));
  CHECK(mentions(found[0], "AOTI_DEVICE_KEY = cpu"));
  const auto off = run_check("shape.input-checks-off", c);
  REQUIRE(off.size() == 1);
  CHECK(off[0].severity == Severity::warning);
  CHECK(mentions(off[0], "AOTI_RUNTIME_CHECK_INPUTS not in the environment"));
  CHECK(run_check("device.load-mismatch", c).empty());   // the process had CUDA loaded
  CHECK(run_check("customop.kernel-crash", c).empty());  // the crash is in the model itself
}

TEST_CASE("device.input-mismatch: the native call path TORCH_SHOW_CPP_STACKTRACES printed") {
  const auto found = run_check<DeviceInputMismatchCheck>(corpus("cuda-package-cpu-input"));
  REQUIRE_FALSE(found.empty());
  // The shim function that raised, past c10's own frames, and the generated model's frame.
  CHECK(mentions(found[0], "frame #4: aoti_torch_cuda_mm_out + 0x8b"));
  CHECK(mentions(found[0], "frame #5: torch::aot_inductor::AOTInductorModel::run_impl"));
  CHECK_FALSE(mentions(found[0], "frame #0: c10::Error::Error"));
}
