// The Markdown report (a bug ticket): tables whose rows keep their cells, fences that close, and no
// input that opens a construct of its own.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <fmt/format.h>

#include "analyzer/report/report.hpp"
#include "tests/report_fixtures.hpp"

namespace {
using namespace aoti::test;

std::vector<std::string> table_rows(const std::string& markdown, const std::string& header) {
  std::vector<std::string> rows;
  auto pos = markdown.find(header);
  if (pos == std::string::npos) return rows;
  pos = markdown.find('\n', markdown.find('\n', pos) + 1) + 1;  // skip header and delimiter rows
  while (pos < markdown.size() && markdown[pos] == '|') {
    const auto end = markdown.find('\n', pos);
    rows.push_back(markdown.substr(pos, end - pos));
    pos = end + 1;
  }
  return rows;
}

// Cells split the way GFM does: a pipe counts unless a backslash escapes it.
std::size_t cell_count(const std::string& row) {
  std::size_t pipes = 0;
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (row[i] == '\\')
      ++i;
    else if (row[i] == '|')
      ++pipes;
  }
  return pipes - 1;
}

}  // namespace

TEST_SUITE_BEGIN("report");

TEST_CASE("markdown: the embedding case: verdict, findings table, sections, fenced commands") {
  const auto c = embedding_case();
  const auto findings = embedding_findings();
  const auto md = aoti::report::render_markdown(c, findings);
  CHECK(md.rfind("# aoti-analyze report\n", 0) == 0);
  CHECK(md.find("**Verdict:** rank 1: Embedding ids out of range") != std::string::npos);
  const auto rows = table_rows(md, "| Rank | Severity | Check | Title |");
  REQUIRE(rows.size() == findings.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    CHECK(
        rows[i].rfind(fmt::format("| {} | {} | `{}` |", findings[i].rank,
                                  aoti::model::to_string(findings[i].severity), findings[i].check),
                      0) == 0);
    CHECK(cell_count(rows[i]) == 4);
  }
  CHECK(md.find("### 1. Embedding ids out of range") != std::string::npos);
  CHECK(md.find("### 2. Input checks are compiled in") != std::string::npos);
  CHECK(
      md.find(
          "   ```sh\n   AOT_INDUCTOR_FILTERED_KERNELS_TO_PRINT=\"triton_poi_fused_embedding_0\"") !=
      std::string::npos);
  CHECK(md.find("`dim 0 in") == std::string::npos);
  CHECK(md.find("## Artifacts") != std::string::npos);
  CHECK(md.find("## Diagnostics") != std::string::npos);
  CHECK(fences_balanced(md));

  SUBCASE("a pipe in a title is escaped in the table and the heading") {
    auto piped = findings;
    piped[0].title = "a | b";
    const auto out = aoti::report::render_markdown(c, piped);
    const auto piped_rows = table_rows(out, "| Rank | Severity | Check | Title |");
    REQUIRE(piped_rows.size() == 2);
    CHECK(piped_rows[0].find("a \\| b") != std::string::npos);
    CHECK(cell_count(piped_rows[0]) == 4);
    CHECK(out.find("### 1. a \\| b") != std::string::npos);
  }
  SUBCASE("artifact table rows have five cells") {
    for (const auto& row : table_rows(md, "| Path | Kind | Size | Analyzed | Note |"))
      CHECK(cell_count(row) == 5);
  }
}

TEST_CASE("markdown: no findings") {
  CHECK(aoti::report::render_markdown(embedding_case(), {}).find("**Verdict:** no findings") !=
        std::string::npos);
}

TEST_CASE("markdown: hostile strings keep the tables and fences") {
  const auto findings = hostile_findings();
  const auto md = aoti::report::render_markdown(hostile_case(), findings);
  CHECK(valid_utf8(md));
  CHECK(md.find('\x1b') == std::string::npos);
  CHECK(fences_balanced(md));
  // Escaped, so GitHub shows the text rather than dropping the tag.
  CHECK(md.find("<script>") == md.find("\\<script>") + 1);
  const auto rows = table_rows(md, "| Rank | Severity | Check | Title |");
  REQUIRE(rows.size() == 3);
  for (const auto& row : rows) CHECK(cell_count(row) == 4);
  for (const auto& row : table_rows(md, "| Path | Kind | Size | Analyzed | Note |"))
    CHECK(cell_count(row) == 5);
  CHECK(md.size() < 20 * 1024);  // the 10 KB excerpt is cut
}

TEST_SUITE_END();
