// The corpus regression test: runs the real CLI on every corpus case and compares its JSON report
// with the case's expected.json (check ids, rank 1, key evidence; never hashes or addresses).
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "tests/support.hpp"

namespace {
using nlohmann::json;

int severity_level(const std::string& s) { return s == "error" ? 2 : s == "warning" ? 1 : 0; }

// Every string value of a finding, unescaped, so expectations can quote commands as printed.
std::string text_of(const json& value) {
  if (value.is_string()) return value.get<std::string>() + "\n";
  std::string out;
  if (value.is_structured())
    for (const auto& item : value) out += text_of(item);
  return out;
}

// Every string must occur somewhere in the finding (title, message, evidence, next steps).
void require_contains(const json& finding, const json& strings, const std::string& what) {
  const std::string text = text_of(finding);
  for (const auto& s : strings) {
    INFO(what << ": finding " << finding.value("check", "") << " must mention '"
              << s.get<std::string>() << "'");
    CHECK(text.find(s.get<std::string>()) != std::string::npos);
  }
}

}  // namespace

TEST_CASE("every corpus case matches its expected.json") {
  std::vector<std::filesystem::path> cases;
  for (const auto& entry : std::filesystem::directory_iterator(aoti::test::corpus_dir()))
    if (std::filesystem::exists(entry.path() / "expected.json")) cases.push_back(entry.path());
  std::sort(cases.begin(), cases.end());
  REQUIRE(cases.size() >= 8);

  for (const auto& dir : cases) {
    SUBCASE(dir.filename().string().c_str()) {
      const json expected = json::parse(aoti::test::read_file(dir / "expected.json"));
      const auto run =
          aoti::test::run_cli("--format json " + aoti::test::shell_quote(dir.string()));
      REQUIRE(run.exit_code == 0);
      const json report = json::parse(run.out);
      REQUIRE(report["schema"] == "aoti-analyze/1");
      const json& findings = report["findings"];

      // The set of checks reported, with counts, is exactly the expected one.
      std::map<std::string, int> got, want;
      for (const auto& f : findings) ++got[f["check"].get<std::string>()];
      for (const auto& f : expected["findings"]) ++want[f["check"].get<std::string>()];
      CHECK(got == want);

      if (expected.contains("rank1")) {
        REQUIRE(!findings.empty());
        CHECK(findings[0]["rank"] == 1);
        CHECK(findings[0]["check"] == expected["rank1"]["check"]);
        if (expected["rank1"].contains("contains"))
          require_contains(findings[0], expected["rank1"]["contains"], "rank 1");
      }
      // Each expected finding is matched by a distinct reported one with its severity and evidence.
      std::vector<bool> used(findings.size(), false);
      for (const auto& want_finding : expected["findings"]) {
        bool matched = false;
        for (std::size_t i = 0; i < findings.size() && !matched; ++i) {
          const auto& f = findings[i];
          if (used[i] || f["check"] != want_finding["check"]) continue;
          if (want_finding.contains("severity") && f["severity"] != want_finding["severity"])
            continue;
          const std::string text = text_of(f);
          bool all = true;
          for (const auto& s : want_finding.value("contains", json::array()))
            all = all && text.find(s.get<std::string>()) != std::string::npos;
          if (all) used[i] = matched = true;
        }
        INFO("expected finding: " << want_finding.dump());
        CHECK(matched);
      }
      // Text no finding may mention (what the case must not flag, e.g. a SymInt-aware kernel).
      for (const auto& absent : expected.value("absent_text", json::array()))
        for (const auto& f : findings) {
          INFO("no finding may mention " << absent);
          CHECK(text_of(f).find(absent.get<std::string>()) == std::string::npos);
        }
      if (expected.contains("max_severity"))
        for (const auto& f : findings)
          CHECK(severity_level(f["severity"]) <= severity_level(expected["max_severity"]));
    }
  }
}

TEST_CASE("the whole corpus in one run: every log is tied to its own package") {
  // The findings of one run over all cases are exactly the union of each case's expected ones:
  // an error line attributed to the wrong package would add or lose a finding.
  // The built cases only: corpus/wild holds logs without packages, each analyzed on its own.
  std::map<std::string, int> want;
  std::string folders;
  for (const auto& entry : std::filesystem::directory_iterator(aoti::test::corpus_dir()))
    if (std::filesystem::exists(entry.path() / "expected.json")) {
      const json expected = json::parse(aoti::test::read_file(entry.path() / "expected.json"));
      for (const auto& f : expected["findings"]) ++want[f["check"].get<std::string>()];
      folders += " " + aoti::test::shell_quote(entry.path().string());
    }
  const auto run = aoti::test::run_cli("--format json" + folders);
  REQUIRE(run.exit_code == 0);
  const json report = json::parse(run.out);
  std::map<std::string, int> got;
  std::set<std::string> fingerprints;
  for (const auto& f : report["findings"]) {
    ++got[f["check"].get<std::string>()];
    fingerprints.insert(f["fingerprint"].get<std::string>());
  }
  CHECK(got == want);
  CHECK(fingerprints.size() == report["findings"].size());
  // The specialization error of cpp-meta-sizes names only the op of its own package.
  for (const auto& f : report["findings"])
    if (f["check"] == "shape.dim-specialized")
      CHECK(text_of(f).find("heldout::pad_rows") == std::string::npos);
}

TEST_CASE("corpus/wild: real error output posted in public issues, each with its thread's answer") {
  // Each case is a log as a user posted it and the check the thread's root cause calls for. The
  // analyzer must name a finding for every case (no input holding an error yields "no findings"),
  // and its rank 1 must be the expected check in at least 90% of them. The misses are printed.
  const auto wild = aoti::test::corpus_dir() / "wild";
  std::vector<std::filesystem::path> cases;
  if (std::filesystem::is_directory(wild))
    for (const auto& entry : std::filesystem::directory_iterator(wild))
      if (std::filesystem::exists(entry.path() / "expected.json")) cases.push_back(entry.path());
  std::sort(cases.begin(), cases.end());
  REQUIRE(cases.size() >= 10);

  std::size_t hits = 0;
  std::vector<std::string> misses;
  for (const auto& dir : cases) {
    const json expected = json::parse(aoti::test::read_file(dir / "expected.json"));
    const auto run = aoti::test::run_cli("--format json " + aoti::test::shell_quote(dir.string()));
    INFO("case " << dir.filename().string());
    REQUIRE(run.exit_code == 0);
    const json report = json::parse(run.out);
    const json& findings = report["findings"];
    CHECK_MESSAGE(!findings.empty(), dir.filename().string()
                                         << ": no findings for a log that holds an error");
    const std::string want = expected["rank1"]["check"];
    bool hit = !findings.empty() && findings[0]["check"] == want;
    if (hit && expected["rank1"].contains("contains")) {
      const std::string text = text_of(findings[0]);
      for (const auto& s : expected["rank1"]["contains"])
        hit = hit && text.find(s.get<std::string>()) != std::string::npos;
    }
    if (hit)
      ++hits;
    else
      misses.push_back(dir.filename().string() + ": want " + want + ", got " +
                       (findings.empty() ? std::string("no findings")
                                         : findings[0]["check"].get<std::string>()));
  }
  std::string listed;
  for (const auto& miss : misses) listed += "\n  " + miss;
  MESSAGE("wild rank 1: " << hits << "/" << cases.size() << listed);
  CHECK(hits * 100 >= cases.size() * 95);
}

TEST_CASE("corpus/wild-heldout*: the set-aside posts each get a finding") {
  // Their rank-1 figures are measured by scripts/wild_score.py --quiet and recorded in their
  // READMEs, not asserted here: a threshold on them would invite tuning to them. Never being
  // silent on an error is asserted for them as for every input.
  std::size_t cases = 0;
  for (const char* folder :
       {"wild-heldout", "wild-heldout-2", "wild-heldout-3", "wild-heldout-4", "wild-heldout-6"}) {
    const auto heldout = aoti::test::corpus_dir() / folder;
    if (!std::filesystem::is_directory(heldout)) continue;
    for (const auto& entry : std::filesystem::directory_iterator(heldout)) {
      if (!std::filesystem::exists(entry.path() / "expected.json")) continue;
      ++cases;
      const auto run =
          aoti::test::run_cli("--format json " + aoti::test::shell_quote(entry.path().string()));
      INFO("case " << folder << "/" << entry.path().filename().string());
      REQUIRE(run.exit_code == 0);
      CHECK_FALSE(json::parse(run.out)["findings"].empty());
    }
  }
  CHECK(cases >= 40);
}
