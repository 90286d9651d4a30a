// cuda.device-exception: the printer's last launch with no `after_launch` and the driver's GPU core
// notice, read with the package (real H200 runs in ../shared/corpus-seed: ranker-printer3 and
// ranker-printer2; corpus/printer3-two-towers-ima, whose GPU core leaves the naming to the dump).
#include <doctest/doctest.h>

#include <filesystem>

#include "checks/cuda/device_exception.hpp"
#include "tests/checks/check_test.hpp"

using namespace aoti::test;

namespace {

std::filesystem::path seed_case(const std::string& name) {
  return source_dir() / ".." / "shared" / "corpus-seed" / name;
}

}  // namespace

TEST_CASE("cuda.device-exception: mode 3, the kernel and the table it gathers from unchecked") {
  const auto seed = seed_case("ranker-printer3");
  if (!std::filesystem::exists(seed)) {
    MESSAGE("skipped: ../shared/corpus-seed/ranker-printer3 is not beside the repository");
    return;
  }
  const auto findings = analyze_paths({seed.string()});
  REQUIRE_FALSE(findings.empty());
  const Finding& f = findings.front();
  CHECK(f.check == "cuda.device-exception");
  CHECK(f.severity == Severity::error);
  const std::string kernel = "triton_per_fused_add_addmm_embedding_native_layer_norm_sum_view_2";
  CHECK(f.title.find("`" + kernel + "`") != std::string::npos);
  CHECK(mentions(f, "`bias.weight`"));
  CHECK(mentions(f, "[300, 1]"));
  CHECK(mentions(f, "your `slot_ids`"));
  CHECK(mentions(f, "'assert_indirect_indexing': False"));
  CHECK(mentions(f, "core_*.nvcudmp"));
  check_no_holes(f);
}

TEST_CASE("cuda.device-exception: mode 2, the printed index against the table's rows") {
  const auto seed = seed_case("ranker-printer2");
  if (!std::filesystem::exists(seed)) {
    MESSAGE("skipped: ../shared/corpus-seed/ranker-printer2 is not beside the repository");
    return;
  }
  const auto findings = analyze_paths({seed.string()});
  REQUIRE_FALSE(findings.empty());
  const Finding& f = findings.front();
  CHECK(f.check == "cuda.device-exception");
  CHECK(f.title.find("`arg9_1` holds 2.74878e+11 against 300 rows of `bias_weight`") !=
        std::string::npos);
  CHECK(mentions(f, "Max value: 2.74878e+11"));
  CHECK(mentions(f, "its Max value was 298"));  // the clean run before it
}

TEST_CASE("cuda.device-exception: a GPU core names the kernel itself; no printer, no finding") {
  CHECK(run_check<CudaDeviceExceptionCheck>(corpus("printer3-two-towers-ima")).empty());
  CHECK(run_check<CudaDeviceExceptionCheck>(cuda_case()).empty());
  // The notice alone: a finding that says the log does not name the kernel.
  const auto findings = analyze_log(
      "Starting GPU coredump generation, set the CUDA_COREDUMP_SHOW_PROGRESS environment variable "
      "to 1 to enable more detailed output\n");
  REQUIRE_FALSE(findings.empty());
  CHECK(findings.front().check == "cuda.device-exception");
  CHECK(mentions(findings.front(), "The log does not say which kernel"));
}
