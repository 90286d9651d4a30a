// `--summary`'s text, on hand-made trace facts: counts, then each list capped with what was left
// out.
#include <doctest/doctest.h>

#include <string>

#include "analyzer/report/trace_summary.hpp"

namespace {
using aoti::model::TraceFacts;

TraceFacts specialized_trace() {
  TraceFacts facts;
  facts.artifact = "trace/dedicated_log_torch_trace_x.log";
  facts.files = {facts.artifact};
  facts.lines = 120;
  facts.records = 40;
  facts.records_by_kind = {{"symbolic_shape_specialization", 1}, {"dynamo_start", 2}};
  facts.records_by_compile_id = {{"", 3}, {"[0/0]", 37}};
  aoti::model::TraceSpecialization spec;
  spec.where = {facts.artifact, 17, "[0/0]", 0};
  spec.symbol = "s77";
  spec.value = "8";
  spec.reason = "range_refined_to_singleton";
  spec.user_frames.push_back({"/m/aoti_gen.py", -1, 209, "forward", "return torch.ops.x.f(x)"});
  facts.specializations.push_back(spec);
  aoti::model::TraceFailure failure;
  failure.where = {facts.artifact, 90, "[0/0]", 0};
  failure.origin = "inferred";
  failure.fail_type = "ConstraintViolation";
  failure.reason = "batch was specialized";
  failure.user_file = "/m/aoti_gen.py";
  failure.user_line = 209;
  facts.failures.push_back(failure);
  return facts;
}

}  // namespace

TEST_CASE("trace summary: counts, records by kind and by compile id") {
  const std::string text = aoti::report::render_trace_summary(specialized_trace());
  CHECK(text.starts_with("trace: trace/dedicated_log_torch_trace_x.log\n"));
  CHECK(text.find("files: 1, lines: 120, records: 40") != std::string::npos);
  CHECK(text.find("  symbolic_shape_specialization: 1\n") != std::string::npos);
  CHECK(text.find("  (none): 3 records\n") != std::string::npos);
  CHECK(text.find("  [0/0]: 37 records\n") != std::string::npos);
}

TEST_CASE("trace summary: a specialization with its user frame, a failure with its user line") {
  const std::string text = aoti::report::render_trace_summary(specialized_trace());
  CHECK(text.find(
            "s77 -> 8 (range_refined_to_singleton) trace/dedicated_log_torch_trace_x.log:17 [0/0]"
            "  at /m/aoti_gen.py:209  return torch.ops.x.f(x)\n") != std::string::npos);
  CHECK(text.find("ConstraintViolation (inferred) trace/dedicated_log_torch_trace_x.log:90 [0/0]: "
                  "batch was specialized"
                  "  [/m/aoti_gen.py:209]\n") != std::string::npos);
}

TEST_CASE("trace summary: a long list shows its first 20 items and counts the rest") {
  TraceFacts facts = specialized_trace();
  for (int i = 0; i < 25; ++i) facts.specializations.push_back(facts.specializations.front());
  const std::string text = aoti::report::render_trace_summary(facts);
  CHECK(text.find("specializations: 26\n") != std::string::npos);
  CHECK(text.find("  ... 6 more\n") != std::string::npos);
}
