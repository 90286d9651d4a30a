// numerics.nan-inf: the asserts TORCHINDUCTOR_NAN_ASSERTS compiles in, read back to the kernel that
// wrote the buffer (real H200 runs: corpus/inf-asserts, ../shared/corpus-seed/nan-asserts), the
// printer's values holding NaN, and the messages alone without a package.
#include <doctest/doctest.h>

#include <filesystem>

#include "checks/numerics/nan_inf.hpp"
#include "tests/checks/check_test.hpp"

using namespace aoti::test;

TEST_CASE("numerics.nan-inf: an INF assert names the buffer, the kernel, its inputs and the op") {
  const auto findings = analyze_paths({corpus_case("inf-asserts").string()});
  REQUIRE_FALSE(findings.empty());
  const Finding& f = findings.front();
  CHECK(f.check == "numerics.nan-inf");
  CHECK(f.severity == Severity::error);
  CHECK(f.title.find("An Inf first appears in `buf0`") == 0);
  CHECK(mentions(f, "triton_poi_fused_exp_mul_0"));
  CHECK(mentions(f, "`arg3_1` (your `x`)"));
  CHECK(mentions(f, "constant `gain`"));
  CHECK(mentions(f, "aten.exp"));
  CHECK(mentions(f, "AOT_INDUCTOR_FILTERED_KERNELS_TO_PRINT=\"triton_poi_fused_exp_mul_0\""));
  // The failed API call is how the same failure surfaced: not a finding of its own.
  CHECK(first_of(findings, "runtime.api-call-failed") == nullptr);
  check_no_holes(f);
}

TEST_CASE("numerics.nan-inf: the seed's NaN run (skipped when ../shared is absent)") {
  const auto seed = source_dir() / ".." / "shared" / "corpus-seed" / "nan-asserts";
  if (!std::filesystem::exists(seed)) {
    MESSAGE("skipped: ../shared/corpus-seed/nan-asserts is not beside the repository");
    return;
  }
  const auto findings = analyze_paths({seed.string()});
  REQUIRE_FALSE(findings.empty());
  const Finding& f = findings.front();
  CHECK(f.check == "numerics.nan-inf");
  CHECK(f.title.find(
            "A NaN first appears in `buf0`, written by `triton_poi_fused_log_mul_sub_0`") == 0);
  CHECK(mentions(f, "constant `scale`"));
  CHECK(mentions(f, "aten.log (NaN for inputs below 0"));
  CHECK(mentions(f, "y = torch.log(x - 1.0) * self.scale"));  // the user's line, from the trace
}

TEST_CASE("numerics.nan-inf: the message alone, without a package, still names the buffer") {
  const auto findings = analyze_log(
      "[E1203 09:42:25.841865905 shim_common.cpp:1095] Exception in aoti_torch: At least one NaN "
      "in buf7\n"
      "Error: aoti_torch_check_inf_and_nan(\"buf7\", buf7) API call failed at /tmp/x/"
      "abc.wrapper.cpp, line 99\n");
  REQUIRE_FALSE(findings.empty());
  CHECK(findings.front().check == "numerics.nan-inf");
  CHECK(findings.front().title == "A NaN first appears in `buf7` (TORCHINDUCTOR_NAN_ASSERTS)");
}

TEST_CASE("numerics.nan-inf: the printer's values: the first launch after which NaN appears") {
  Case c = cuda_case();
  DebugRunFacts facts;
  facts.artifact = "run.log";
  PrinterRun run;
  const auto value = [](PrintPhase phase, std::string arg, std::optional<double> max, int line) {
    PrintedValue v;
    v.phase = phase;
    v.kernel = "triton_poi_fused_log_0";
    v.arg = std::move(arg);
    v.where = {"run.log", "", line};
    v.header = "[  " + std::string(aoti::model::to_string(phase)) + " - triton_poi_fused_log_0 - " +
               v.arg + "  ]:";
    v.tensor.emplace();
    v.tensor->max = max;
    return v;
  };
  run.values.push_back(value(PrintPhase::before_launch, "arg0_1", 4.0, 1));
  run.values.push_back(value(PrintPhase::before_launch, "buf0", 0.0, 12));
  run.values.push_back(value(PrintPhase::after_launch, "arg0_1", 4.0, 24));
  run.values.push_back(value(PrintPhase::after_launch, "buf0", std::nan(""), 36));
  facts.runs.push_back(run);
  c.debug_runs.push_back(facts);
  const auto found = run_check<NumericsNanInfCheck>(c);
  REQUIRE(found.size() == 1);
  CHECK(found[0].title == "A NaN first appears in `buf0` after `triton_poi_fused_log_0`");
  CHECK(mentions(found[0], "before the launch it held none"));
  CHECK(mentions(found[0], "`arg0_1`"));
  // A clean printer run is no finding.
  c.debug_runs[0].runs[0].values.pop_back();
  CHECK(run_check<NumericsNanInfCheck>(c).empty());
}

TEST_CASE("numerics.nan-inf from a posted log: torch's own check, and printed metrics") {
  // aici#19: torch.multinomial's check of its probabilities; the op that noticed is named.
  const auto checked = analyze_wild("aici-19-low-temperature-fp16-logit-overflow-nan");
  REQUIRE(!checked.empty());
  CHECK(checked[0].check == "numerics.nan-inf");
  CHECK(mentions(checked[0], "torch.multinomial(probs,"));
  // ao#3356: a training loop's metrics dicts (a Python repr, not JSON: read as a log).
  const auto printed = analyze_wild("ao-3356-fp8-rowwise-zero-scale-nan");
  REQUIRE(!printed.empty());
  CHECK(printed[0].check == "numerics.nan-inf");
  CHECK(printed[0].title == "The run printed `loss`, `grad_norm` as nan");
  CHECK(printed[0].message.find("3 more lines print them so") != std::string::npos);
  // A setting printed as inf once is not a symptom.
  for (const auto& f : analyze_log("config: max_norm=inf, lr=0.1\n"))
    CHECK(f.check != "numerics.nan-inf");
}
