// shape.data-dependent-guard: unit tests on hand-built Cases and the corpus cases it is about.
#include <doctest/doctest.h>

#include "checks/shape/data_dependent_guard.hpp"
#include "tests/checks/check_test.hpp"

using namespace aoti::test;

TEST_CASE("shape.data-dependent-guard from the trace") {
  Case c = cuda_case();
  TraceFacts trace;
  trace.artifact = "trace.log";
  trace.data_dependent.push_back(
      {{"trace.log", 12, "", 0}, "guard_on_data_dependent_error", "Eq(u0, 0)", "", "", {}});
  c.traces.push_back(trace);
  const auto found = run_check<ShapeDataDependentGuardCheck>(c);
  REQUIRE(found.size() == 1);
  CHECK(mentions(found[0], "Eq(u0, 0)"));
}

TEST_CASE("shape.data-dependent-guard from what the log shows of a cut-off traceback") {
  const auto found = analyze_wild("pytorch-163791-longrope-seq-len-branch");
  REQUIRE(!found.empty());
  const Finding& f = found[0];
  CHECK(f.check == "shape.data-dependent-guard");
  // Said as inferred: the error itself is not in the log.
  CHECK(f.title.find("inferred") != std::string::npos);
  CHECK(f.confidence < 0.8);
  // The library code that asked for the value, with its line.
  CHECK(mentions(f, "longrope_frequency_update"));
  CHECK(mentions(f, "if seq_len > original_max_position_embeddings:"));
  check_no_holes(f);
  check_quotes(found,
               read_file(corpus_dir() / "wild/pytorch-163791-longrope-seq-len-branch/stderr.txt"));
}

TEST_CASE(
    "shape.data-dependent-guard from a trace alone: make_fx failing after an unbacked symbol") {
  const auto found =
      analyze_paths({(corpus_case("export-data-dependent-guard") / "trace").string()});
  REQUIRE(!found.empty());
  CHECK(found[0].check == "shape.data-dependent-guard");
  CHECK(found[0].title.find("inferred") != std::string::npos);
  CHECK(mentions(found[0], "u0"));
  CHECK(first_of(found, "export.failed") == nullptr);
}

TEST_CASE("shape.data-dependent-guard: a wrapper whose message states the guard further down") {
  // The ONNX exporter's TorchExportError with the guard in its `## Exception summary`.
  const auto found = analyze_wild("piper1-gpl-99-onnx-dynamo-export-infer-dde");
  REQUIRE(!found.empty());
  CHECK(found[0].check == "shape.data-dependent-guard");
  CHECK(mentions(found[0], "Eq(u2, 1)"));
  CHECK(mentions(found[0], "non_strict_utils.py:1066"));
}
