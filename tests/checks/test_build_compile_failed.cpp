// build.compile-failed: unit tests on hand-built Cases and the corpus cases it is about.
#include <doctest/doctest.h>

#include "checks/build/compile_failed.hpp"
#include "tests/checks/check_test.hpp"

using namespace aoti::test;

TEST_CASE("build.compile-failed") {
  SUBCASE("a CUDA header missing: the toolkit, the generated file that included it") {
    const auto found = analyze_wild("pytorch-150442-cuda-h-missing-ctk");
    REQUIRE(!found.empty());
    const Finding& f = found[0];
    CHECK(f.check == "build.compile-failed");
    CHECK(f.title == "The C++ build failed: header `cuda.h` was not found");
    CHECK(mentions(f, "CUDA Toolkit"));
    CHECK(mentions(f, "aoti_runtime/device_utils.h"));  // where the include is
    CHECK(mentions(
        f, "cmt6f253zl4hyovrmrmpja5p6g7cjd2i4ookgutf7baavulnnrc6.cpp"));  // what was compiled
    CHECK(mentions(f, "export CUDA_HOME=/usr/local/cuda"));
    check_quotes(found, aoti::test::read_file(aoti::test::corpus_dir() /
                                              "wild/pytorch-150442-cuda-h-missing-ctk/stderr.txt"));
  }
  SUBCASE("generated code calling a shim function the headers do not declare") {
    const auto found = analyze_wild("pytorch-120394-embedding-bag-shim");
    REQUIRE(!found.empty());
    CHECK(found[0].check == "build.compile-failed");
    CHECK(mentions(found[0], "C++ that Inductor generated"));
    CHECK(mentions(found[0], "grep -rn aoti_torch__embedding_bag"));
  }
  SUBCASE("ptxas, with the nvcc command that ran it") {
    const auto found = analyze_wild("pytorch-174161-ptx-sm120a-fatbin");
    REQUIRE(!found.empty());
    CHECK(found[0].check == "build.compile-failed");
    CHECK(found[0].title.starts_with("ptxas rejected the PTX of a kernel"));
    CHECK(std::any_of(found[0].evidence.begin(), found[0].evidence.end(), [](const Evidence& e) {
      return e.note == "the compiler command" && e.excerpt.starts_with("nvcc -fatbin");
    }));
    CHECK(
        !first_of(found, "inductor.compile-failed"));  // Inductor's error only carried the build's
  }
  SUBCASE("ptxas on a line of the PTX: a feature the GPU's target lacks") {
    // unsloth#501 as posted: bf16 PTX assembled for a T4 (sm_75).
    const auto found = analyze_log(
        "ptxas /tmp/compile-ptx-src-38292b, line 336; error   : Feature '.bf16' requires .target "
        "sm_80 or higher\n"
        "ptxas /tmp/compile-ptx-src-38292b, line 336; error   : Feature 'cvt.bf16.f32' requires "
        ".target sm_80 or higher\n");
    REQUIRE(!found.empty());
    CHECK(found[0].check == "build.compile-failed");
    CHECK(found[0].title.starts_with("ptxas rejected the PTX of a kernel"));
    CHECK(found[0].why.find("uses `.bf16`, which needs a GPU of sm_80 or newer") !=
          std::string::npos);
  }
  SUBCASE("torch's headers refuse the standard the build asked for; a cached compiler command") {
    // vllm#49260: ATen.h's `#error C++20 ...` under `sccache /usr/bin/c++ ... flash_api.cpp`.
    const auto found = analyze_wild("vllm-49260-vllm-flash-attn-cxx17-vs-aten-cxx20");
    REQUIRE(!found.empty());
    CHECK(found[0].check == "build.compile-failed");
    CHECK(found[0].why.find("PyTorch's headers need C++20") != std::string::npos);
    CHECK(mentions(found[0], "flash_api.cpp"));
    // The paste elided the command's flags (`...`): it is not offered as a command to re-run.
    for (const auto& step : found[0].next_steps)
      CHECK(step.command.find("...") == std::string::npos);
  }
  SUBCASE("no compiler output, only the exception: CUDA_HOME") {
    const auto found = analyze_wild("pytorch-197765-cuda-home-unset");
    REQUIRE(!found.empty());
    CHECK(found[0].check == "build.compile-failed");
    CHECK(mentions(found[0], "CUDA_HOME environment variable is not set"));
  }
  SUBCASE("the linker's specific error, not collect2's summary") {
    const std::string log =
        "/usr/bin/ld: /tmp/torchinductor_u/ab/cabc.o: in function `run': cabc.cpp:(.text+0x2a): "
        "undefined reference to `cuLaunchKernel'\n"
        "collect2: error: ld returned 1 exit status\n";
    const auto found = analyze_log(log);
    REQUIRE(found.size() == 1);
    CHECK(found[0].title == "Linking failed: undefined reference to `cuLaunchKernel`");
    CHECK(found[0].evidence[0].where.line == 1);
    check_quotes(found, log);
  }
}

TEST_CASE("build.compile-failed: setuptools could not run the compiler it was given") {
  const auto found = analyze_wild("mmdetection-944-cuda-home-path-list-nvcc");
  REQUIRE(!found.empty());
  const Finding& f = found[0];
  CHECK(f.check == "build.compile-failed");
  CHECK(f.title.find("does not exist") != std::string::npos);
  // The path is a `:`-joined list: said so, and CUDA_HOME is what to fix.
  CHECK(mentions(f, "`:`-separated list"));
  CHECK(mentions(f, "export CUDA_HOME=/usr/local/cuda"));
  CHECK(mentions(f, "failed with exit status 1"));
  check_no_holes(f);
}
