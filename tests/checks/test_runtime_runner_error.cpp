// runtime.runner-error: unit tests on hand-built Cases and the corpus cases it is about.
#include <doctest/doctest.h>

#include "checks/runtime/runner_error.hpp"
#include "tests/checks/check_test.hpp"

using namespace aoti::test;

TEST_CASE("runtime.runner-error") {
  SUBCASE("out of memory while the container loaded the weights, above the deprecation warning") {
    const auto found = analyze_wild("torchchat-1302-aot-load-cuda-oom");
    REQUIRE(found.size() == 2);
    CHECK(found[0].check == "runtime.runner-error");
    CHECK(found[0].title ==
          "The AOTI runner call `create_func_` failed: `CUDA error: out of memory`");
    CHECK(mentions(found[0], "nvidia-smi"));
    CHECK(found[1].check == "api.deprecated");
  }
  SUBCASE("the wrong number of inputs") {
    const auto found = analyze_log(
        "Error: expected inputs vector size to be 2, but got 3\n"
        "RuntimeError: run_func_( container_handle_, input_handles.data(), input_handles.size(), "
        "output_handles.data(), output_handles.size(), "
        "reinterpret_cast<AOTInductorStreamHandle>(stream_handle), "
        "proxy_executor_handle_) API call failed at "
        "/pytorch/torch/csrc/inductor/aoti_runner/model_container_runner.cpp, line 144\n");
    REQUIRE(!found.empty());
    CHECK(found[0].check == "runtime.runner-error");
    CHECK(found[0].title.find("wrong number of inputs") != std::string::npos);
  }
  SUBCASE("left to the checks that explain the cause: input checks, devices") {
    const auto found = analyze_log(
        "Error: input_handles[0]: unmatched device type, expected: 11(cuda), but got: 0\n"
        "RuntimeError: run_func_( container_handle_ ) API call failed at "
        "/pytorch/model_container_runner.cpp, line 144\n");
    CHECK(!first_of(found, "runtime.runner-error"));
  }
}

TEST_CASE("runtime.runner-error: a C++ program's uncaught exception out of torch's runner") {
  const auto found = analyze_wild("pytorch-cpp-2-libtorch-older-than-model");
  REQUIRE(!found.empty());
  CHECK(found[0].check == "runtime.runner-error");
  CHECK(found[0].title.find("`torch::jit::load` threw `c10::Error`") != std::string::npos);
  CHECK(mentions(found[0], "import.cpp:95"));
  CHECK(mentions(found[0], "called from `main` in ./classifier"));
  CHECK(mentions(found[0], "ldd ./classifier | grep -E 'libtorch|libc10'"));
  // An uncaught exception whose frames are not torch's runner's is not this check's.
  const auto other = analyze_log(
      "terminate called after throwing an instance of 'std::runtime_error'\n"
      "  what():  boom\n"
      "frame #0: mylib::f() + 0x11 (0x7f9b5bad3fe1 in /x/libmylib.so)\n"
      "frame #1: main + 0x81 (0x55c9231d5861 in ./prog)\n");
  CHECK(!first_of(other, "runtime.runner-error"));
}

TEST_CASE("runtime.runner-error: a runner a CI script ran on a model (set -x), and how it ended") {
  // torchchat#678: the runner's own message, then the CI's nonzero exit.
  const auto missing = analyze_wild("torchchat-678-runner-tokenizer-path-not-downloaded");
  REQUIRE(!missing.empty());
  CHECK(missing[0].check == "runtime.runner-error");
  CHECK(missing[0].title.starts_with(
      "The runner `aoti_run` failed on `exportedModels/stories15M.so`"));
  REQUIRE(!missing[0].next_steps.empty());
  CHECK(missing[0].next_steps[0].command.starts_with("ls -l exportedModels/stories15M.so "));
  // torchchat#703: libc++abi's uncaught exception (macOS), its type and what() on one line.
  const auto thrown = analyze_wild("torchchat-703-llama3-tokenizer-flag-on-sentencepiece");
  REQUIRE(!thrown.empty());
  CHECK(thrown[0].check == "runtime.runner-error");
  CHECK(mentions(thrown[0], "std::invalid_argument: invalid encoder line"));
  CHECK(mentions(thrown[0], "-l 3"));
}

TEST_CASE("runtime.runner-error: torch's archive reader threw in a C++ program") {
  const auto found = analyze_wild("pytorch-20356-torch-save-file-read-by-cpp-torch-load");
  REQUIRE(!found.empty());
  CHECK(found[0].check == "runtime.runner-error");
  CHECK(found[0].title.starts_with("torch's `caffe2::serialize::PyTorchStreamReader::init` threw"));
}
