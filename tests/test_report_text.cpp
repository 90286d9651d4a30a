// The text report: the verdict first, prose wrapped to the width, commands and locations whole,
// colour only when asked, nothing from an input that drives the terminal.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <string>

#include "analyzer/report/common.hpp"
#include "analyzer/report/report.hpp"
#include "tests/report_fixtures.hpp"

namespace {
using namespace aoti::test;
}  // namespace

TEST_SUITE_BEGIN("report");

TEST_CASE("text: the embedding case: verdict, contract, whole commands and locations") {
  const auto c = embedding_case();
  const auto findings = embedding_findings();
  const auto plain = aoti::report::render_text(c, findings, false);
  CHECK(plain.rfind("rank 1: " + findings[0].title + "\n", 0) == 0);
  CHECK(plain.find(findings[1].title) != std::string::npos);
  CHECK(plain.find('\x1b') == std::string::npos);
  CHECK(plain.find("arg3_1: dim 0 in [2, 64], dim 1 in [2, 2048], int64 (at::kLong), on cuda;") !=
        std::string::npos);
  // Commands are never wrapped, so they can be copied whole.
  CHECK(plain.find("   " + findings[0].next_steps[0].command + "\n") != std::string::npos);
  CHECK(plain.find(findings[0].evidence[0].where.display()) != std::string::npos);

  SUBCASE("prose stays within 100 columns") {
    std::size_t start = 0;
    while (start < plain.size()) {
      const auto end = plain.find('\n', start);
      const std::string line = plain.substr(start, end - start);
      const bool verbatim =
          line.rfind("rank 1: ", 0) == 0 || line.find("model.pt2:") != std::string::npos ||
          line.find("AOT_INDUCTOR") != std::string::npos || line.find("tl.") != std::string::npos ||
          line.find("python -c") != std::string::npos ||
          line.find("call_triton") != std::string::npos ||
          line.find("Assertion") != std::string::npos;
      if (!verbatim) CHECK_MESSAGE(line.size() <= 100, line);
      start = end + 1;
    }
  }
  SUBCASE("colour only when asked") {
    const auto colored = aoti::report::render_text(c, findings, true);
    CHECK(colored.find("\x1b[1;31merror") != std::string::npos);
    CHECK(colored.find("\x1b[1;33mwarning") != std::string::npos);
  }
}

TEST_CASE("text: no findings") {
  CHECK(aoti::report::render_text(embedding_case(), {}, false).rfind("no findings\n", 0) == 0);
}

TEST_CASE("text: hostile strings cannot escape to the terminal, and stay valid UTF-8") {
  const auto plain = aoti::report::render_text(hostile_case(), hostile_findings(), false);
  CHECK(valid_utf8(plain));
  CHECK(plain.find('\x1b') == std::string::npos);
  CHECK(plain.find("\\x1b[31mred") != std::string::npos);
  CHECK(plain.size() < 20 * 1024);
}

TEST_SUITE_END();

TEST_CASE("text: wraps to the width it is given, in linear time") {
  const auto c = embedding_case();
  auto findings = embedding_findings();
  const auto narrow = aoti::report::render_text(c, findings, false, 60);
  // The prose of the first finding, wrapped under its label column (16) within 60 columns.
  const auto what = narrow.find("      what      ");
  REQUIRE(what != std::string::npos);
  for (std::size_t at = what;
       narrow.compare(at, 16, what == at ? "      what      " : "                ") == 0;) {
    const auto end = narrow.find('\n', at);
    CHECK(end - at <= 60);
    at = end + 1;
  }
  CHECK(narrow.find("   " + findings[0].next_steps[0].command + "\n") !=
        std::string::npos);  // commands stay whole
  CHECK(aoti::report::render_text(c, findings, false) ==
        aoti::report::render_text(c, findings, false, 100));

  // A 1 MiB word (a minified line, a base64 blob) is cut into lines of the width, not rescanned per
  // line.
  findings[0].message = std::string(1 << 20, 'x') + " and " + std::string(1 << 20, 'y');
  const auto start = std::chrono::steady_clock::now();
  const auto huge = aoti::report::render_text(c, findings, false, 80);
  const auto seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(seconds < 2.0);
  CHECK(huge.find(std::string(80 - 16, 'x') + "\n") != std::string::npos);
  CHECK(static_cast<std::size_t>(std::count(huge.begin(), huge.end(), 'y')) >= (1u << 20));
}

TEST_CASE(
    "a tree's many compile errors and missing headers are summarized; -v and JSON list them") {
  aoti::model::Case c;
  for (int i = 0; i < 30; ++i) {
    const std::string file = "tree/src/op" + std::to_string(i) + ".cu";
    c.diagnostics.push_back({file, file + ":3:10: error: 'c10/cuda/CUDAStream.h' file not found",
                             aoti::model::DiagnosticSource::artifact,
                             aoti::model::SourceProblem::compile_error, i < 2 ? 40 : 1});
    if (i < 5)
      c.diagnostics.push_back({file,
                               file + ": 1 included header(s) not found, ...",
                               aoti::model::DiagnosticSource::artifact,
                               aoti::model::SourceProblem::missing_headers,
                               1,
                               {"cub/cub.cuh"}});
  }
  c.diagnostics.push_back({"tree/src/op7.cu",
                           "tree/src/op7.cu: compile errors inside ...",
                           aoti::model::DiagnosticSource::artifact,
                           aoti::model::SourceProblem::functions_with_errors,
                           4,
                           {"rows_meta", "Launcher::run", "TORCH_LIBRARY block (x)", "helper"}});
  c.diagnostics.push_back({"tree/ops.cpp", "a diagnostic of another kind"});
  auto view = aoti::report::view_diagnostics(c.diagnostics);
  CHECK(view.summarized == 36);
  REQUIRE(view.whole.size() == 1);
  CHECK(view.whole[0]->message == "a diagnostic of another kind");
  REQUIRE(view.summary.size() == 4);
  CHECK(view.summary[1].starts_with("4 function(s) in 1 source(s) hold compile errors"));
  CHECK(view.summary[1].find("op7.cu: rows_meta, Launcher::run, TORCH_LIBRARY block (x) (+1)") !=
        std::string::npos);
  view.summary.erase(view.summary.begin() + 1);
  CHECK(view.summary[0].starts_with("30 C++ source(s) did not compile cleanly (108 errors;"));
  CHECK(view.summary[0].find("op0.cu (40), op1.cu (40)") != std::string::npos);
  CHECK(view.summary[1].starts_with("1 header(s) were found nowhere, in 5 source(s)"));
  CHECK(view.summary[1].find("cub/cub.cuh (5)") != std::string::npos);
  // A few are shown whole, as they are.
  c.diagnostics.resize(10);
  CHECK(c.diagnostics.back().problem != aoti::model::SourceProblem::functions_with_errors);
  CHECK(aoti::report::view_diagnostics(c.diagnostics).summary.empty());
}
