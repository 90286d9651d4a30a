// What the per-check tests share: running one check, the corpus loaded once per case, small
// hand-built Cases, and the whole pipeline over a log.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "analyzer/pipeline/analyze.hpp"
#include "checks/registry.hpp"
#include "tests/support.hpp"

namespace aoti::test {
using namespace aoti::model;
using namespace aoti::pipeline;
using namespace aoti::checks;

// The findings of check `CheckT` alone on `c`.
template <typename CheckT>
std::vector<Finding> run_check(const Case& c) {
  return CheckT{}.run(c);
}

// The same, by id, through the registry (for a test that looks at several checks).
inline std::vector<Finding> run_check(const std::string& id, const Case& c) {
  const Check* check = find_check(id);
  REQUIRE(check != nullptr);
  return check->run(c);
}

// A corpus case through the whole pipeline's loading, read once per test binary: decompressing a
// core and parsing sources with libclang cost seconds.
inline const Case& corpus(const std::string& name) {
  static std::map<std::string, Case> loaded;
  auto it = loaded.find(name);
  if (it == loaded.end()) it = loaded.emplace(name, load_case({corpus_case(name).string()})).first;
  return it->second;
}

inline std::string all_text(const Finding& f) {
  std::string all = f.title + "\n" + f.message + "\n" + f.why;
  for (const auto& e : f.evidence)
    all += "\n" + e.excerpt + "\n" + e.note + "\n" + e.where.display();
  for (const auto& s : f.next_steps) all += "\n" + s.what + "\n" + s.command;
  return all;
}

inline bool mentions(const Finding& f, const std::string& text) {
  return all_text(f).find(text) != std::string::npos;
}

inline const Finding* first_of(const std::vector<Finding>& findings, const std::string& check) {
  for (const auto& f : findings)
    if (f.check == check) return &f;
  return nullptr;
}

// The sentences a finding writes (quoted excerpts and commands are the artifacts' own text).
inline std::string written_text(const Finding& f) {
  std::string all = f.title + "\n" + f.message + "\n" + f.why;
  for (const auto& e : f.evidence) all += "\n" + e.note;
  for (const auto& s : f.next_steps) all += "\n" + s.what;
  for (const auto& s : f.chain) all += "\n" + s;
  return all;
}

// No template holes: empty code spans, a parameter with no name, dangling separators.
inline void check_no_holes(const Finding& f) {
  // Code spans are the artifacts' text (`relu()` is code, not a hole): holes are looked for around
  // them, as test_report_truth does.
  static const std::regex k_code("`[^`]+`");
  const std::string text = std::regex_replace(written_text(f), k_code, "CODE");
  INFO(text);
  for (const std::string hole :
       {"``", "parameter ``", " ;", " ,", " .", ": .", "; .", "()", "  ", "\n\n"})
    CHECK_MESSAGE(text.find(hole) == std::string::npos, "hole: '" << hole << "'");
  // A quote always has its text; a hand-built case's wrapper has no source to quote from.
  for (const auto& e : f.evidence)
    if (e.kind == EvidenceKind::quote) CHECK_FALSE(e.excerpt.empty());
  for (const auto& s : f.chain) CHECK_FALSE(s.empty());
}

// A one-model CUDA case with one dynamic input `arg0_1` (dim 0 in [2, 64], dim 1 = 16).
inline Case cuda_case() {
  Case c;
  ModelFacts model;
  model.name = "model";
  model.metadata["AOTI_DEVICE_KEY"] = "cuda";
  WrapperFacts w;
  w.where = Location{"m.pt2", "model/x.wrapper.cpp", 0};
  w.inputs.push_back({.index = 0, .name = "arg0_1", .line = 10});
  w.input_checks.push_back({0, "arg0_1", InputCheckKind::dim_min, 0, 2, "", 20});
  w.input_checks.push_back({0, "arg0_1", InputCheckKind::dim_max, 0, 64, "", 21});
  w.input_checks.push_back({0, "arg0_1", InputCheckKind::dim_equal, 1, 16, "", 22});
  w.checks_gated_by_env = true;
  w.gate_line = 30;
  w.bindings.push_back({"s0", "arg0_1", 0, false, 40});
  model.wrapper = w;
  c.models.push_back(model);
  return c;
}

inline LogEvent event(LogEventKind kind, std::string subject = {}, std::string value = {}) {
  LogEvent e;
  e.kind = kind;
  e.where = Location{"stderr.txt", "", 3};
  e.subject = std::move(subject);
  e.value = std::move(value);
  e.model = 0;
  return e;
}

// A crash whose innermost frame is in `module`, in a process mapping `modules`.
inline CoreFacts crash_in(const std::string& module, const std::string& package,
                          std::vector<std::string> modules) {
  CoreFacts core;
  core.artifact = "core";
  core.signal_name = "SIGSEGV";
  CoreThread thread;
  thread.tid = 7;
  thread.crashed = true;
  thread.frames.push_back({0x1000, module, 0x10,
                           "gather_rows_cpu(at::Tensor const&, at::Tensor const&)", 4, "initial",
                           package});
  core.threads.push_back(thread);
  for (const auto& m : modules) core.modules.push_back({m, false, 0, 0, 0, "", ""});
  return core;
}

// A trace whose fake-kernel records are a missing fake (line 20), a mismatched one (line 30) and a
// missing fake recorded with its overload (line 40): the customop.fake-* checks split them.
inline TraceFacts fake_kernel_trace() {
  TraceFacts trace;
  trace.artifact = "trace.log";
  trace.fake_kernels.push_back(
      {{"trace.log", 20, "", 0}, "missing_fake_kernel", "mylib::nofake", ""});
  trace.fake_kernels.push_back(
      {{"trace.log", 30, "", 0}, "mismatched_fake_kernel", "mylib::liar", "shape [4] vs [5]"});
  trace.fake_kernels.push_back(
      {{"trace.log", 40, "", 0}, "missing_fake_kernel", "tt.nofake.default", ""});
  return trace;
}

// The whole pipeline (load, checks, ranking) on `paths`.
inline std::vector<Finding> analyze_paths(const std::vector<std::string>& paths) {
  Case c = load_case(paths);
  auto findings = run_checks(c);
  rank(findings);
  return findings;
}

inline std::vector<Finding> analyze_wild(const std::string& name) {
  return analyze_paths({(corpus_dir() / "wild" / name / "stderr.txt").string()});
}

// Analyzes `text` as a log named stderr.txt in a scratch folder.
inline std::vector<Finding> analyze_log(const std::string& text) {
  TempDir dir;
  const auto path = dir.path / "stderr.txt";
  write_file(path, text);
  return analyze_paths({path.string()});
}

// Every quoted log line is the line as the log holds it (trimmed).
inline void check_quotes(const std::vector<Finding>& findings, const std::string& log_text) {
  std::vector<std::string> lines(1);
  for (char ch : log_text) {
    if (ch == '\n')
      lines.emplace_back();
    else
      lines.back() += ch;
  }
  for (const auto& f : findings)
    for (const auto& e : f.evidence) {
      if (e.where.line <= 0 || !e.where.artifact.ends_with("stderr.txt")) continue;
      REQUIRE(static_cast<std::size_t>(e.where.line) <= lines.size());
      std::string line = lines[static_cast<std::size_t>(e.where.line) - 1];
      line.erase(0, line.find_first_not_of(" \t"));
      while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
      std::string excerpt = e.excerpt;
      while (!excerpt.empty() && excerpt.back() == ' ') excerpt.pop_back();
      INFO(f.check << " quotes line " << e.where.line);
      CHECK(excerpt == line);
    }
}

}  // namespace aoti::test
