// checks/support: what the checks conclude from a core's frames, and the names of c10 codes in
// input-check errors.
#include <doctest/doctest.h>

#include "checks/support/contract.hpp"
#include "checks/support/crash.hpp"
#include "tests/checks/check_test.hpp"

using namespace aoti::test;

TEST_CASE(
    "stack-scan frames are candidates: never the path, never the phase where unwound frames "
    "speak") {
  const Case c = corpus("custom-op-kernel-crash");
  REQUIRE(c.cores.size() == 1);
  const CoreFacts& core = c.cores[0];
  // The unwound frames stop in libtorch_cpu; AOTInductorModelContainerRun is only found by the
  // scan.
  CHECK(crash_phase(core).empty());
  const CrashPhase phase = crash_phase_of(core);
  CHECK(phase.phase == "running the model");
  CHECK(phase.from_stack_scan);
  CHECK(phase.symbol == "AOTInductorModelContainerRun");
  CHECK(crash_phase_clause(core).starts_with(
      "probably while running the model (AOTInductorModelContainerRun"));
  const auto found = run_check("customop.kernel-crash", c);
  REQUIRE(found.size() == 1);
  // The frames evidence: the unwound path, then the one candidate that suggested the phase,
  // labelled.
  const Evidence* frames = nullptr;
  for (const auto& e : found[0].evidence)
    if (e.excerpt.starts_with("#0 ")) frames = &e;
  REQUIRE(frames != nullptr);
  const auto label = frames->excerpt.find(std::string(k_stack_scan_label));
  REQUIRE(label != std::string::npos);
  CHECK(frames->excerpt.find("AOTInductorModelContainerRun", label) != std::string::npos);
  CHECK(frames->excerpt.find("libc.so.6") ==
        std::string::npos);  // a stack-scan frame, not the path
  CHECK(frames->excerpt.find("[stack scan]") == std::string::npos);
  // Where unwound frames say the phase (the load crash), a stack-scan frame never overrides it.
  const Case load = corpus("load-crash-static-libstdcxx");
  CHECK(crash_phase(load.cores[0]) == "loading the model");
  CHECK_FALSE(crash_phase_of(load.cores[0]).from_stack_scan);
}

TEST_CASE("input-check errors name c10's codes as c10 does") {
  CHECK(dtype_name_of_code("6(at::kFloat)") == "float32");
  CHECK(dtype_name_of_code("4") == "int64");
  CHECK(dtype_name_of_code("99") == "dtype 99");
  CHECK(device_name_of_code("0") == "cpu");
  CHECK(device_name_of_code("1") == "cuda");
  // The six the old table named wrongly (c10/core/DeviceType.h).
  CHECK(device_name_of_code("7") == "fpga");
  CHECK(device_name_of_code("9") == "xla");
  CHECK(device_name_of_code("12") == "xpu");
  CHECK(device_name_of_code("13") == "mps");
  CHECK(device_name_of_code("19") == "mtia");
  CHECK(device_name_of_code("20") == "privateuseone");
  CHECK(device_name_of_code("x") == "device type x");
}
