// The `.pt` dumps of the intermediate value printer's mode 1 through the pipeline: one folder is
// one DebugRunFacts whose values are named and ordered by the wrapper's save calls when the package
// is given, and by the documented rule, marked inferred, when it is not.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>

#include "analyzer/pipeline/analyze.hpp"
#include "tests/support.hpp"

namespace {

using aoti::model::PrintedValue;
using aoti::model::PrintPhase;

const std::filesystem::path k_case = aoti::test::corpus_dir() / "printer1-nan-dumps";

const PrintedValue* find_value(const std::vector<PrintedValue>& values, PrintPhase phase,
                               const std::string& kernel, const std::string& arg) {
  const auto it = std::find_if(values.begin(), values.end(), [&](const PrintedValue& v) {
    return v.phase == phase && v.kernel == kernel && v.arg == arg;
  });
  return it == values.end() ? nullptr : &*it;
}

bool mentions(const aoti::model::Case& c, const std::string& text) {
  return std::any_of(c.diagnostics.begin(), c.diagnostics.end(),
                     [&](const auto& d) { return d.message.find(text) != std::string::npos; });
}

}  // namespace

TEST_CASE("printer1-nan-dumps: the folder is one run of 16 values, named by the wrapper's calls") {
  const auto c = aoti::pipeline::load_case({k_case.string()});
  CHECK_FALSE(mentions(c, "not a pt2 package"));
  CHECK(std::count_if(c.artifacts.begin(), c.artifacts.end(), [](const auto& a) {
          return a.kind == aoti::model::ArtifactKind::tensor_dump && a.analyzed;
        }) == 16);
  REQUIRE(c.debug_runs.size() == 1);
  const auto& facts = c.debug_runs[0];
  CHECK(std::filesystem::path(facts.artifact).filename() == "tmp");
  CHECK(facts.model == std::optional<std::size_t>{0});
  CHECK(facts.problems.empty());
  REQUIRE(facts.runs.size() == 1);
  const auto& values = facts.runs[0].values;
  REQUIRE(values.size() == 16);
  // In the wrapper's order: the save calls' lines, before then after each launch.
  CHECK(std::is_sorted(values.begin(), values.end(), [](const auto& a, const auto& b) {
    return a.wrapper_line < b.wrapper_line;
  }));
  CHECK(values.front().wrapper_line == 908);
  for (const auto& value : values) {
    CHECK_FALSE(value.names_inferred);
    CHECK(value.where.artifact.ends_with(".pt"));
    CHECK(value.tensor);
  }
  const auto* x =
      find_value(values, PrintPhase::before_launch, "triton_poi_fused_log_mul_0", "arg3_1");
  REQUIRE(x);
  CHECK(x->tensor->min == -3.0);
  CHECK(x->tensor->nan_count == 0);
  const auto* buf0 =
      find_value(values, PrintPhase::after_launch, "triton_poi_fused_log_mul_0", "buf0");
  REQUIRE(buf0);
  CHECK(buf0->tensor->nan_count == 1);
  const auto* gain =
      find_value(values, PrintPhase::before_launch, "triton_poi_fused_log_mul_0", "gain");
  REQUIRE(gain);
  CHECK(gain->tensor->min == 0.5);
  CHECK(gain->tensor->max == 0.5);
  CHECK(find_value(values, PrintPhase::after_launch, "aoti_torch_cuda_mm_out", "buf1"));
  CHECK(find_value(values, PrintPhase::before_launch, "triton_per_fused_addmm_relu_sum_1",
                   "proj_bias"));
  // The first value holding NaN after a launch, in launch order, is buf0 after the log kernel.
  // (Before it, buf0 is the kernel's output not yet written: memory the caching allocator handed
  // on, which in this run held NaN too.)
  const auto first_nan = std::find_if(values.begin(), values.end(), [](const PrintedValue& v) {
    return v.phase == PrintPhase::after_launch && v.tensor->nan_count.value_or(0) > 0;
  });
  REQUIRE(first_nan != values.end());
  CHECK(&*first_nan == buf0);
}

TEST_CASE("printer1-nan-dumps: the dumps alone are split by the rule, marked inferred") {
  const auto c = aoti::pipeline::load_case({(k_case / "tmp").string()});
  REQUIRE(c.debug_runs.size() == 1);
  CHECK_FALSE(c.debug_runs[0].model);
  const auto& values = c.debug_runs[0].runs.at(0).values;
  REQUIRE(values.size() == 16);
  for (const auto& value : values) {
    CHECK(value.names_inferred);
    CHECK(value.wrapper_line == 0);
  }
  CHECK(find_value(values, PrintPhase::before_launch, "triton_poi_fused_log_mul_0", "arg3_1"));
  CHECK(find_value(values, PrintPhase::after_launch, "triton_per_fused_addmm_relu_sum_1",
                   "proj_bias"));
  CHECK(find_value(values, PrintPhase::after_launch, "aoti_torch_cuda_mm_out", "buf0"));
  CHECK(std::is_sorted(values.begin(), values.end(), [](const auto& a, const auto& b) {
    return a.where.artifact < b.where.artifact;
  }));
}

TEST_CASE("a broken dump is a diagnostic naming it; the folder's other dumps still read") {
  aoti::test::TempDir dir;
  for (const auto& entry : std::filesystem::directory_iterator(k_case / "tmp"))
    std::filesystem::copy_file(entry.path(), dir.path / entry.path().filename());
  const auto cut = dir.path / "aoti_torchafter_launch_triton_poi_fused_log_mul_0_buf0_cuda:0.pt";
  std::filesystem::resize_file(cut, 700);
  aoti::test::write_file(dir.path / "aoti_torchbefore_launch_k_0_x_cpu.pt", "PK\x03\x04 cut");
  const auto c = aoti::pipeline::load_case({dir.path.string()});
  REQUIRE(c.debug_runs.size() == 1);
  CHECK(c.debug_runs[0].runs.at(0).values.size() == 15);
  CHECK(c.debug_runs[0].problems.size() == 2);
  const auto diagnostic = std::find_if(c.diagnostics.begin(), c.diagnostics.end(),
                                       [&](const auto& d) { return d.artifact == cut.string(); });
  REQUIRE(diagnostic != c.diagnostics.end());
  CHECK(diagnostic->message.starts_with("tensor dump: "));
  CHECK_FALSE(mentions(c, "pt2"));
}
