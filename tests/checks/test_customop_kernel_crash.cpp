// customop.kernel-crash: unit tests on hand-built Cases and the corpus cases it is about.
#include <doctest/doctest.h>

#include "checks/customop/kernel_crash.hpp"
#include "tests/checks/check_test.hpp"

using namespace aoti::test;

TEST_CASE("customop.kernel-crash and device.load-mismatch from a core") {
  Case c = cuda_case();
  c.models[0].package = "m.pt2";
  c.models[0].extern_nodes.push_back({0, "buf0", "heldout_cpp::gather_rows", {}, {"buf1"}});
  c.cores.push_back(
      crash_in("/opt/ops/libheldout_ops.so", "", {"/usr/lib/x86_64-linux-gnu/libcuda.so.1"}));
  auto found = run_check<CustomopKernelCrashCheck>(c);
  REQUIRE(found.size() == 1);
  CHECK(mentions(found[0], "libheldout_ops.so"));
  CHECK(mentions(found[0], "heldout_cpp::gather_rows"));

  // The same crash in libtorch is not a custom op's.
  c.cores[0] = crash_in("/site-packages/torch/lib/libtorch_cpu.so", "", {});
  CHECK(run_check<CustomopKernelCrashCheck>(c).empty());

  // A CUDA package's frame crashing in a process without libcuda: a CPU runner loaded it.
  c.cores[0] = crash_in("/tmp/x/model.so", "m.pt2", {"/usr/lib/x86_64-linux-gnu/libc.so.6"});
  found = run_check("device.load-mismatch", c);
  REQUIRE(found.size() == 1);
  CHECK(mentions(found[0], "AOTI_DEVICE_KEY = cuda"));
}
