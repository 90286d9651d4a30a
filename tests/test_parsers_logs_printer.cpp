// The debugging flags' output in a log: the intermediate value printer's launches (mode 3), its
// tensor blocks and scalars (mode 2), runs told apart, the driver's GPU core notice, the generated
// wrapper TORCH_LOGS=output_code logs; and the same output cut, glued to other text or hostile.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "tests/parsers_logs_support.hpp"

using namespace aoti::test::logs;
using aoti::model::PrintPhase;

namespace {

std::filesystem::path seed_case(const std::string& name) {
  return aoti::test::source_dir() / ".." / "shared" / "corpus-seed" / name;
}

}  // namespace

TEST_CASE("printer mode 3: a clean run, then a run that stops inside a launch") {
  const auto scan = scan_corpus("printer3-two-towers-ima", "run.log");
  REQUIRE(scan.debug_run);
  const auto& facts = *scan.debug_run;
  REQUIRE(facts.runs.size() == 2);
  CHECK(facts.runs[0].launches.size() == 3);
  for (const auto& launch : facts.runs[0].launches) CHECK(launch.after_line > launch.before_line);
  REQUIRE(facts.runs[1].launches.size() == 1);
  CHECK(facts.runs[1].launches[0].kernel == "triton_poi_fused_embedding_0");
  CHECK(facts.runs[1].launches[0].after_line == 0);
  CHECK(facts.runs[1].launches[0].before_text == "[ before_launch: triton_poi_fused_embedding_0 ]");
  REQUIRE(facts.device_exception);
  CHECK(facts.device_exception->where.line == facts.runs[1].launches[0].before_line + 1);
  CHECK(facts.device_exception->core_file.empty());
  CHECK(facts.problems.empty());
}

TEST_CASE("printer mode 2: model inputs and one kernel's arguments, per run (seed case)") {
  const auto log = seed_case("ranker-printer2") / "run.log";
  if (!std::filesystem::exists(log)) {
    MESSAGE("skipped: ../shared/corpus-seed/ranker-printer2 is not beside the repository");
    return;
  }
  const auto scan = scan_log_text(aoti::test::read_file(log), "run.log");
  REQUIRE(scan.debug_run);
  const auto& runs = scan.debug_run->runs;
  REQUIRE(runs.size() == 2);
  const std::string kernel = "triton_per_fused_add_addmm_embedding_native_layer_norm_sum_view_2";
  for (const auto& run : runs) {
    REQUIRE(run.launches.size() == 1);
    CHECK(run.launches[0].kernel == kernel);
  }
  CHECK(runs[0].launches[0].after_line > 0);
  CHECK(runs[1].launches[0].after_line == 0);  // the failing run never returned from it
  // The failing run's model input arg9_1: its printed statistics, as text and as numbers.
  const auto input = std::find_if(runs[1].values.begin(), runs[1].values.end(), [](const auto& v) {
    return v.phase == PrintPhase::model_inputs && v.arg == "arg9_1";
  });
  REQUIRE(input != runs[1].values.end());
  REQUIRE(input->tensor);
  CHECK(input->tensor->max_text == "2.74878e+11");
  CHECK(*input->tensor->max == doctest::Approx(2.74878e11));
  CHECK(input->tensor->dtype == "long int");
  CHECK(input->tensor->size == std::vector<std::int64_t>{8, 20});
  CHECK(input->header == "[  aoti_model_inputs - arg9_1  ]:");
  // A tensor printed with its values, then its statistics; and the scalars glued on one line.
  const auto table = std::find_if(runs[1].values.begin(), runs[1].values.end(), [&](const auto& v) {
    return v.phase == PrintPhase::before_launch && v.arg == "bias_weight";
  });
  REQUIRE(table != runs[1].values.end());
  CHECK(table->kernel == kernel);
  CHECK(table->tensor->size == std::vector<std::int64_t>{300, 1});
  const auto numel = std::find_if(runs[0].values.begin(), runs[0].values.end(), [&](const auto& v) {
    return v.phase == PrintPhase::after_launch && v.arg == kernel + "_xnumel";
  });
  REQUIRE(numel != runs[0].values.end());
  CHECK(numel->scalar == "160");
  const auto bias = std::find_if(runs[0].values.begin(), runs[0].values.end(),
                                 [](const auto& v) { return v.arg == "mlp_2_bias"; });
  REQUIRE(bias != runs[0].values.end());
  CHECK(bias->tensor->numel == 48);
  CHECK(bias->tensor->min_text == "-0.0954216");
  REQUIRE(scan.debug_run->device_exception);
  CHECK(scan.debug_run->problems.empty());
}

TEST_CASE("printer: a block cut by the end of the log, NaN statistics, other text around") {
  const auto scan = scan_log_text(
      "INFO something [not the printer]\n"
      "[  before_launch - k_0 - buf0  ]:\n"
      "Number of elements: 4\n"
      "Dtype: float32\n"
      "Mean value: nan\n"
      "Min value: -inf\n"
      "Max value: nan\n"
      "Size: [4]\n"
      "Requires grad: 0\n"
      "\n"
      "[  after_launch - k_0 - buf0  ]:\n"
      " 1\n",
      "log.txt");
  REQUIRE(scan.debug_run);
  const auto& run = scan.debug_run->runs.at(0);
  REQUIRE(run.values.size() == 2);
  CHECK(std::isnan(*run.values[0].tensor->mean));
  CHECK(std::isinf(*run.values[0].tensor->min));
  CHECK(run.values[1].cut);
  REQUIRE(scan.debug_run->problems.size() == 1);
  CHECK(scan.debug_run->problems[0].find("line 11") != std::string::npos);
  CHECK(run.launches.at(0).after_line == 11);
}

TEST_CASE("printer: logs without its output have no debug facts; hostile brackets are harmless") {
  CHECK_FALSE(
      scan_log_text("Traceback (most recent call last):\nValueError: x\n", "a.txt").debug_run);
  const auto hostile = scan_log_text(
      std::string("[ before_launch:  ]\n[  before_launch -  - ]:\n[ after_launch: never ]\n") +
          std::string(70000, '[') + "\n[  aoti_model_inputs -  ]:\n" + "Size: [1, x, 3]\n",
      "h.txt");
  if (hostile.debug_run)
    for (const auto& run : hostile.debug_run->runs)
      for (const auto& v : run.values) CHECK_FALSE(v.arg.empty());
}

TEST_CASE("output_code: the logged wrapper's lines, without and with the logger's prefix") {
  const auto scan = scan_corpus("output-code-log-device-assert", "run.log");
  REQUIRE(scan.output_code);
  const auto& code = *scan.output_code;
  CHECK(code.first_line == 386);
  CHECK(code.code.starts_with("\n#include <torch/csrc/inductor/aoti_include/cuda.h>\n"));
  CHECK(code.code.find("call_triton_per_fused_embedding_mean_0(") != std::string::npos);
  CHECK(code.raw.find("[__output_code] #include <torch/csrc/inductor/aoti_include/cuda.h>") !=
        std::string::npos);
  CHECK_FALSE(code.cut);
  CHECK(code.file.ends_with("/ckloyhr5o4hp6lqo7nbulwxoxyo2bt3upfsnhlwijgbemys7x5tw.wrapper.cpp"));
  // Only the wrapper that follows the header; a log without one has none.
  CHECK_FALSE(scan_log_text("I1 x.py:1] [__output_code] Kernel code written to: /x\n", "a.txt")
                  .output_code);
  const auto two = scan_log_text(
      "V1 x.py:1] [__output_code] Output wrapper code: \nV1 x.py:1] [__output_code] int a;\n"
      "other\nV1 x.py:1] [__output_code] int b;\n",
      "b.txt");
  REQUIRE(two.output_code);
  CHECK(two.output_code->code == "int a;\n");
  // A line that ends at the marker (found by fuzz_logs: it read past the line's end).
  const auto bare = scan_log_text(
      "x [__output_code]\nV1 x.py:1] [__output_code] Output wrapper code:\nV1 x.py:1] "
      "[__output_code]\nV1 x.py:1] [__output_code] int c;\nend\nI1 [__output_code]\n",
      "c.txt");
  REQUIRE(bare.output_code);
  CHECK(bare.output_code->code == "\nint c;\n");
  CHECK(bare.output_code->file.empty());
}

TEST_CASE("printer: millions of lines cost bounded memory; the first and latest launches stay") {
  std::string text = "[ before_launch: k_first ]\n[ after_launch: k_first ]\n";
  for (int i = 0; i < 150000; ++i)
    text += "[ before_launch: k_" + std::to_string(i) + " ]\n[ after_launch: k_" +
            std::to_string(i) + " ]\n";
  text += "[ before_launch: k_last ]\n";
  for (int i = 0; i < 100005; ++i) text += "[  before_launch - k_last - x: 1  ]\n";
  const auto scan = scan_log_text(text, "big.log");
  REQUIRE(scan.debug_run);
  REQUIRE(scan.debug_run->runs.size() == 1);
  const auto& run = scan.debug_run->runs[0];
  CHECK(run.launches.size() <= 100001);
  CHECK(run.launches_not_kept > 0);
  CHECK(run.launches.front().kernel == "k_first");
  REQUIRE(run.launches.size() >= 3);
  CHECK(run.launches.back().kernel == "k_last");
  CHECK(run.launches.back().after_line == 0);
  CHECK(run.launches[run.launches.size() - 2].kernel == "k_149999");
  CHECK(run.values.size() == 100000);
  const auto& problems = scan.debug_run->problems;
  CHECK(std::any_of(problems.begin(), problems.end(), [](const std::string& p) {
    return p.find("printed values; 5 more were not kept") != std::string::npos;
  }));
  CHECK(std::any_of(problems.begin(), problems.end(), [](const std::string& p) {
    return p.find("older ones were not kept") != std::string::npos;
  }));
}
