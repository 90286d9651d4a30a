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

TEST_CASE("cuda.device-exception: mode 1's dumps stop before a kernel returned (seed package)") {
  const auto seed = seed_case("ranker-printer3");
  if (!std::filesystem::exists(seed)) {
    MESSAGE("skipped: ../shared/corpus-seed/ranker-printer3 is not beside the repository");
    return;
  }
  // The seed's package and log (the driver's notice), with the dumps mode 1 would have saved in
  // tmp/ beside them instead of the printer's mode-3 lines.
  Case c = load_case({seed.string()});
  REQUIRE(c.debug_runs.size() == 1);
  c.debug_runs[0].runs.clear();
  const std::string kernel = "triton_per_fused_add_addmm_embedding_native_layer_norm_sum_view_2";
  DebugRunFacts dumps;
  dumps.artifact = (seed / "tmp").string();
  PrinterRun run;
  const auto saved = [&](PrintPhase phase, const std::string& k, const std::string& arg, double max,
                         std::vector<std::int64_t> size) {
    PrintedValue v;
    v.phase = phase;
    v.kernel = k;
    v.arg = arg;
    v.where = {(seed / "tmp" /
                ("aoti_torch" + std::string(to_string(phase)) + "_" + k + "_" + arg + "_cuda:0.pt"))
                   .string(),
               "", 0};
    v.tensor.emplace();
    v.tensor->max = max;
    v.tensor->min = 0;
    v.tensor->numel = 160;
    v.tensor->size = std::move(size);
    return v;
  };
  run.values.push_back(
      saved(PrintPhase::before_launch, "triton_poi_fused_gelu_view_1", "buf2", 1, {}));
  run.values.push_back(
      saved(PrintPhase::after_launch, "triton_poi_fused_gelu_view_1", "buf2", 1, {}));
  run.values.push_back(saved(PrintPhase::before_launch, kernel, "arg9_1", 2.74878e11, {8, 20}));
  run.values.push_back(saved(PrintPhase::before_launch, kernel, "bias_weight", 2.6, {300, 1}));
  dumps.runs.push_back(run);
  c.debug_runs.push_back(dumps);
  const auto found = run_check<CudaDeviceExceptionCheck>(c);
  REQUIRE(found.size() == 1);  // the log's notice alone adds nothing once the dumps name the kernel
  const Finding& f = found.front();
  CHECK(f.title.find("`" + kernel + "`") != std::string::npos);
  CHECK(f.title.find("`arg9_1` holds 2.74878e+11 against 300 rows of `bias_weight`") !=
        std::string::npos);
  CHECK(mentions(f, "saved its arguments before the launch and nothing after it"));
  CHECK(mentions(f, "`triton_poi_fused_gelu_view_1`"));
  check_no_holes(f);
  // Without a failure in the run's logs, dumps that stop are no finding: the run may have been cut.
  c.debug_runs.erase(c.debug_runs.begin());
  c.log_events.clear();
  CHECK(run_check<CudaDeviceExceptionCheck>(c).empty());
}
