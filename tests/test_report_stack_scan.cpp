// Frames that only a stack scan found are candidates, never part of the unwound path: every writer
// that shows a crash says so, apart from the path.
#include <doctest/doctest.h>

#include <string>

#include "analyzer/report/common.hpp"
#include "analyzer/report/report.hpp"
#include "tests/report_fixtures.hpp"

namespace {
using namespace aoti::test;
}  // namespace

TEST_CASE("stack-scan frames are shown apart, as candidates, in text, Markdown and HTML") {
  auto c = embedding_case();
  aoti::model::CoreFacts core;
  core.artifact = k_dir + "/core.xz";
  core.pid = 7;
  core.signal = 11;
  core.signal_name = "SIGSEGV";
  core.signal_code_name = "SEGV_MAPERR";
  core.fault_address = 0x400040fe36d0;
  core.fault_region = "unmapped, far from every mapping";
  core.fault_kind = "unmapped";
  aoti::model::CoreThread thread;
  thread.tid = 7;
  thread.crashed = true;
  thread.frames.push_back({0x7f00000010, "/ext/seed_ops.so", 0x10, "", 0, "initial", ""});
  thread.frames.push_back({0x7f10000020, "/torch/lib/libtorch_cpu.so", 0x20, "", 0, "cfi", ""});
  thread.frames.push_back({0x7f20000030, "/tmp/x/model.so", 0x30,
                           "torch::aot_inductor::AOTInductorModelBase::load_constants(bool)", 9,
                           "stack scan", k_package});
  thread.frames.push_back({0x7f20000040, "/tmp/x/model.so", 0x40, "AOTInductorModelContainerRun", 4,
                           "stack scan", k_package});
  core.threads.push_back(thread);
  c.cores.push_back(core);
  const auto findings = embedding_findings();

  const auto crash = aoti::report::summarize(c.cores[0]);
  REQUIRE(crash.frames.size() == 2);  // the unwound path, unnamed frames included
  CHECK(crash.frames[0].find("seed_ops.so") != std::string::npos);
  REQUIRE(crash.candidates.size() == 2);
  CHECK(crash.candidates[1].find("AOTInductorModelContainerRun") != std::string::npos);
  CHECK(crash.phase.starts_with("probably while running the model"));

  const std::string label(aoti::model::k_stack_scan_meaning);
  const auto text = aoti::report::render_text(c, findings, false);
  const auto frames_at = text.find("  frames      #0 ");
  const auto label_at = text.find("  candidates  " + label);
  REQUIRE(frames_at != std::string::npos);
  REQUIRE(label_at != std::string::npos);
  CHECK(frames_at < label_at);
  CHECK(text.find("load_constants") > label_at);
  const auto md = aoti::report::render_markdown(c, findings);
  const auto md_label = md.find("- **Candidates** (" + label + "):");
  REQUIRE(md_label != std::string::npos);
  CHECK(md.find("load_constants") > md_label);
  CHECK(fences_balanced(md));
  const auto html = aoti::report::render_html(c, findings);
  const auto html_label = html.find(std::string(aoti::model::k_stack_scan_label));
  REQUIRE(html_label != std::string::npos);
  CHECK(html.find("load_constants") > html_label);
  CHECK(html.find("[stack scan]") == std::string::npos);
}
