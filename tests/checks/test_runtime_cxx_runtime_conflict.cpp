// runtime.cxx-runtime-conflict: unit tests on hand-built Cases and the corpus cases it is about.
#include <doctest/doctest.h>

#include "checks/runtime/cxx_runtime_conflict.hpp"
#include "tests/checks/check_test.hpp"

using namespace aoti::test;

TEST_CASE("runtime.cxx-runtime-conflict") {
  for (const char* name : {"load-crash-static-libstdcxx", "const-cpu-buffer", "cpp-meta-sizes"}) {
    INFO(name);
    const auto found = run_check<RuntimeCxxRuntimeConflictCheck>(corpus(name));
    REQUIRE(found.size() == 1);
    CHECK(mentions(found[0], "std::locale"));
    CHECK(mentions(found[0], "/opt/gcc/bin/g++"));
  }
  for (const char* name :
       {"embedding-device-assert", "healthy-cuda-dynamic", "cpu-package-cuda-input-segv",
        "custom-op-fake-static-rows", "input-check-errors"}) {
    INFO(name);
    CHECK(run_check<RuntimeCxxRuntimeConflictCheck>(corpus(name)).empty());
  }
}

TEST_CASE(
    "runtime.cxx-runtime-conflict on the real core of load-crash-static-libstdcxx: the crash in "
    "the model's own libstdc++ makes the conflict the answer") {
  const auto found =
      run_check<RuntimeCxxRuntimeConflictCheck>(corpus("load-crash-static-libstdcxx"));
  REQUIRE(found.size() == 1);
  CHECK(found[0].severity == Severity::error);
  CHECK(found[0].explains_failure);
  CHECK(mentions(found[0], "torch::aot_inductor::parse_device_str"));
  CHECK(mentions(found[0], "libstdc++.so.6.0.33"));
  CHECK(mentions(found[0], "while loading the model"));
}
