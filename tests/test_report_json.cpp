// The JSON report, schema "aoti-analyze/1": keys in contract order, every value typed, valid UTF-8.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "analyzer/report/report.hpp"
#include "analyzer/version.hpp"
#include "tests/report_fixtures.hpp"

namespace {
using namespace aoti::test;
using Json = nlohmann::ordered_json;

void check_contract_json(const Json& j) {
  const std::set<std::string> top = {"schema", "tool",     "artifacts",  "models",
                                     "ops",    "findings", "diagnostics"};
  std::set<std::string> keys;
  for (const auto& [key, value] : j.items()) keys.insert(key);
  CHECK(keys == top);
  CHECK(j["schema"] == "aoti-analyze/1");
  CHECK(j["tool"] == Json{{"name", "aoti-analyze"}, {"version", aoti::k_version}});
  for (const auto& a : j["artifacts"]) {
    CHECK(a.size() == 5);
    CHECK(a["path"].is_string());
    CHECK(a["kind"].is_string());
    CHECK(a["size"].is_number_unsigned());
    CHECK(a["analyzed"].is_boolean());
    CHECK(a["note"].is_string());
  }
  for (const auto& m : j["models"]) {
    CHECK(m["name"].is_string());
    CHECK(m["device"].is_string());
    CHECK(m["inputs"].is_array());
    CHECK((m["kernels"].is_number_unsigned() || m["kernels"].is_null()));
  }
  const std::vector<std::string> finding_keys = {
      "rank",   "check",    "severity",   "confidence", "title",       "message",
      "why",    "evidence", "next_steps", "chain",      "fingerprint", "explains_failure",
      "subject"};
  for (const auto& f : j["findings"]) {
    std::vector<std::string> order;
    for (const auto& [key, value] : f.items()) order.push_back(key);
    CHECK(order == finding_keys);
    CHECK(f["rank"].is_number_integer());
    CHECK(f["check"].is_string());
    CHECK((f["severity"] == "error" || f["severity"] == "warning" || f["severity"] == "note"));
    CHECK(f["confidence"].is_number());
    for (const char* key : {"title", "message", "why", "fingerprint", "subject"})
      CHECK(f[key].is_string());
    CHECK(f["explains_failure"].is_boolean());
    for (const auto& step : f["next_steps"]) {
      CHECK(step["what"].is_string());
      CHECK(step["command"].is_string());
      CHECK(
          (step["language"] == "sh" || step["language"] == "python" || step["language"] == "cpp"));
    }
    for (const auto& e : f["evidence"]) {
      CHECK(e.size() == 7);
      CHECK((e["kind"] == "quote" || e["kind"] == "fact"));
      // A quote has a line to be checked against; a fact may have none.
      if (e["kind"] == "quote") CHECK(e["line"].is_number_integer());
      CHECK((e["line_end"].is_null() ||
             (e["line_end"].is_number_integer() && e["line_end"] > e["line"])));
      CHECK(e["artifact"].is_string());
      CHECK(e["entry"].is_string());
      CHECK((e["line"].is_null() || (e["line"].is_number_integer() && e["line"] >= 1)));
      CHECK(e["excerpt"].is_string());
      CHECK(e["note"].is_string());
    }
  }
  for (const auto& d : j["diagnostics"]) {
    CHECK(d.size() == 2);
    CHECK(d["artifact"].is_string());
    CHECK(d["message"].is_string());
  }
}

}  // namespace

TEST_SUITE_BEGIN("report");

TEST_CASE("json: the embedding case, in contract order") {
  const auto c = embedding_case();
  const auto findings = embedding_findings();
  const Json j = Json::parse(aoti::report::render_json(c, findings));
  check_contract_json(j);
  CHECK(j["findings"].size() == 2);
  CHECK(j["findings"][0]["check"] == "triton.index-out-of-bounds");
  CHECK(j["findings"][0]["evidence"][0]["entry"] == k_wrapper_entry);
  CHECK(j["findings"][0]["evidence"][0]["line"] == 679);
  CHECK(j["artifacts"][2]["analyzed"] == false);
  CHECK(j["models"][0]["device"] == "cuda");
  CHECK(j["models"][0]["kernels"] == 3);
  CHECK(j["models"][0]["inputs"][0]["contract"] ==
        "dim 0 in [2, 64], dim 1 in [2, 2048], int64 (at::kLong), on cuda; checks only with "
        "AOTI_RUNTIME_CHECK_INPUTS=1");
  CHECK(j["models"][0]["compiler"] == "GCC: (Ubuntu 13.3.0-6ubuntu2~24.04.1) 13.3.0");
  CHECK(j["diagnostics"].size() == 1);

  SUBCASE("pretty-printed with two spaces") {
    const auto text = aoti::report::render_json(c, findings);
    CHECK(text.rfind("{\n  \"schema\": \"aoti-analyze/1\",\n", 0) == 0);
  }
  SUBCASE("an evidence without a line says null") {
    auto one = findings;
    one[0].evidence[0].where.line = 0;
    CHECK(Json::parse(aoti::report::render_json(c, one))["findings"][0]["evidence"][0]["line"]
              .is_null());
  }
}

TEST_CASE("json: no findings") {
  const Json j = Json::parse(aoti::report::render_json(embedding_case(), {}));
  check_contract_json(j);
  CHECK(j["findings"].empty());
}

TEST_CASE("json: hostile strings stay valid UTF-8 and keep the contract") {
  const auto text = aoti::report::render_json(hostile_case(), hostile_findings());
  CHECK(valid_utf8(text));
  const Json j = Json::parse(text);
  check_contract_json(j);
  CHECK(j["findings"][2]["evidence"][0]["excerpt"].get<std::string>().size() == 10 * 1024);
}

TEST_SUITE_END();
