// The SARIF 2.1.0 report: one run, a rule per check, a result per finding with valid locations;
// each edge case a named test, as cppcheck's testsarifreport does.
#include <doctest/doctest.h>

#include <cctype>
#include <set>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "analyzer/report/report.hpp"
#include "checks/registry.hpp"
#include "tests/report_fixtures.hpp"

namespace {
using namespace aoti::test;
using Json = nlohmann::ordered_json;

bool is_valid_uri_reference(const std::string& uri) {
  if (uri.empty()) return false;
  for (std::size_t i = 0; i < uri.size(); ++i) {
    const unsigned char c = uri[i];
    if (c == '%') {
      if (i + 2 >= uri.size() || !std::isxdigit(static_cast<unsigned char>(uri[i + 1])) ||
          !std::isxdigit(static_cast<unsigned char>(uri[i + 2])))
        return false;
      i += 2;
      continue;
    }
    if (!std::isalnum(c) && std::string_view("-._~:/?#[]@!$&'()*+,;=").find(static_cast<char>(c)) ==
                                std::string_view::npos)
      return false;
  }
  // A relative reference whose first segment holds a colon would parse as a scheme.
  const auto colon = uri.find(':');
  if (colon != std::string::npos && uri.compare(0, 5, "file:") != 0) return uri.find('/') < colon;
  return true;
}

void check_location(const Json& location) {
  const auto& uri = location["physicalLocation"]["artifactLocation"]["uri"];
  REQUIRE(uri.is_string());
  CHECK_MESSAGE(is_valid_uri_reference(uri.get<std::string>()), uri);
  if (location["physicalLocation"].contains("region"))
    CHECK(location["physicalLocation"]["region"]["startLine"] >= 1);
}

void check_sarif(const Json& sarif, const std::vector<Finding>& findings) {
  CHECK(sarif["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json");
  CHECK(sarif["version"] == "2.1.0");
  REQUIRE(sarif["runs"].size() == 1);
  const auto& run = sarif["runs"][0];
  CHECK(run["tool"]["driver"]["name"] == "aoti-analyze");
  const auto& rules = run["tool"]["driver"]["rules"];
  std::set<std::string> rule_ids;
  for (const auto& rule : rules) {
    CHECK(rule_ids.insert(rule["id"].get<std::string>()).second);
    CHECK(!rule["shortDescription"]["text"].get<std::string>().empty());
  }
  REQUIRE(run["results"].size() == findings.size());
  for (std::size_t i = 0; i < findings.size(); ++i) {
    const auto& result = run["results"][i];
    CHECK(result["ruleId"] == findings[i].check);
    const auto index = result["ruleIndex"].get<std::size_t>();
    REQUIRE(index < rules.size());
    CHECK(rules[index]["id"] == result["ruleId"]);
    const std::set<std::string> levels = {"error", "warning", "note", "none"};
    CHECK(levels.count(result["level"].get<std::string>()) == 1);
    CHECK(!result["message"]["text"].get<std::string>().empty());
    CHECK(result["partialFingerprints"]["aotiAnalyze/v1"] == findings[i].fingerprint);
    CHECK(result["properties"]["rank"] == findings[i].rank);
    REQUIRE(!result["locations"].empty());
    for (const auto& location : result["locations"]) check_location(location);
    for (const auto& location : result.value("relatedLocations", Json::array()))
      check_location(location);
  }
  for (const auto& artifact : run["artifacts"])
    CHECK(is_valid_uri_reference(artifact["location"]["uri"].get<std::string>()));
  CHECK(run["invocations"][0]["executionSuccessful"] == true);
}

// The embedding case's report, checked whole, and its first result.
struct EmbeddingSarif {
  Case c = embedding_case();
  std::vector<Finding> findings = embedding_findings();
  Json sarif = Json::parse(aoti::report::render_sarif(c, findings, aoti::checks::check_infos()));
  const Json& result = sarif["runs"][0]["results"][0];
};

}  // namespace

TEST_SUITE_BEGIN("report");

TEST_CASE(
    "sarif: the embedding case: a valid run, one result per finding, levels from severities") {
  const EmbeddingSarif base;
  check_sarif(base.sarif, base.findings);
  CHECK(base.result["level"] == "error");
}

TEST_CASE(
    "sarif: an entry inside a package: package uri, entry in the logical location, no region") {
  const EmbeddingSarif base;
  const auto& location = base.result["locations"][0];
  CHECK(location["physicalLocation"]["artifactLocation"]["uri"] == k_package);
  CHECK(location["physicalLocation"]["artifactLocation"]["index"] == 0);
  CHECK(!location["physicalLocation"].contains("region"));
  CHECK(location["logicalLocations"][0]["fullyQualifiedName"] == k_wrapper_entry + ":679");
}

TEST_CASE("sarif: a line of the artifact itself: a region") {
  const EmbeddingSarif base;
  const auto& location = base.result["relatedLocations"][1];
  CHECK(location["physicalLocation"]["artifactLocation"]["uri"] == k_stderr);
  CHECK(location["physicalLocation"]["region"]["startLine"] == 5);
}

TEST_CASE("sarif: absolute paths become file URIs, odd characters are percent-encoded") {
  const EmbeddingSarif base;
  auto odd = base.c;
  odd.artifacts[0].path = "/tmp/my models/a:b#1.pt2";
  auto one = base.findings;
  one[0].evidence[0].where.artifact = odd.artifacts[0].path;
  const Json out = Json::parse(aoti::report::render_sarif(odd, one, aoti::checks::check_infos()));
  CHECK(
      out["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] ==
      "file:///tmp/my%20models/a%3Ab%231.pt2");
}

TEST_CASE("sarif: diagnostics become tool execution notifications") {
  const EmbeddingSarif base;
  const auto& notes = base.sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"];
  REQUIRE(notes.size() == 1);
  CHECK(notes[0]["message"]["text"] == base.c.diagnostics[0].message);
}

TEST_CASE("sarif: a finding without evidence still has a location") {
  const EmbeddingSarif base;
  auto one = base.findings;
  one[1].evidence.clear();
  const Json out =
      Json::parse(aoti::report::render_sarif(base.c, one, aoti::checks::check_infos()));
  CHECK(
      out["runs"][0]["results"][1]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] ==
      k_package);
}

TEST_CASE("sarif: a check that failed is the notification's rule, not an artifact location") {
  auto c = embedding_case();
  c.diagnostics = {{"triton.index-out-of-bounds", "check failed internally: vector index",
                    aoti::model::DiagnosticSource::check}};
  const Json sarif =
      Json::parse(aoti::report::render_sarif(c, embedding_findings(), aoti::checks::check_infos()));
  const auto& notes = sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"];
  REQUIRE(notes.size() == 1);
  CHECK(notes[0]["associatedRule"]["id"] == "triton.index-out-of-bounds");
  CHECK_FALSE(notes[0].contains("locations"));
}

TEST_CASE("sarif: no findings: a valid run without results, the verdict says so") {
  const Json sarif =
      Json::parse(aoti::report::render_sarif(embedding_case(), {}, aoti::checks::check_infos()));
  check_sarif(sarif, {});
  CHECK(sarif["runs"][0]["properties"]["verdict"] == "no findings");
}

TEST_CASE("sarif: hostile strings: a rule for an unregistered check, valid UTF-8 and URIs") {
  const auto findings = hostile_findings();
  const auto text =
      aoti::report::render_sarif(hostile_case(), findings, aoti::checks::check_infos());
  CHECK(valid_utf8(text));
  const Json sarif = Json::parse(text);
  check_sarif(sarif, findings);
  CHECK(sarif["runs"][0]["results"][2]["locations"][0]["physicalLocation"]["artifactLocation"]
             ["uri"] == "weird%20dir/stderr%20log.txt");
}

TEST_SUITE_END();
