// The four report writers, on a hand-built case modelled on corpus/embedding-device-assert and
// on hostile strings. Findings are built by hand so that the tests do not depend on the checks.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <set>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analyzer/report/common.hpp"
#include "analyzer/report/report.hpp"
#include "checks/registry.hpp"

namespace {

using aoti::model::ArtifactKind;
using aoti::model::Case;
using aoti::model::Finding;
using aoti::model::InputCheckKind;
using aoti::model::Severity;
using Json = nlohmann::ordered_json;

const std::string k_dir = "corpus/embedding-device-assert";
const std::string k_package = k_dir + "/model.pt2";
const std::string k_stderr = k_dir + "/stderr.txt";
const std::string k_wrapper_entry =
    "model/data/aotinductor/model/cdnctzzhd3tubc5ir4itscfgos625b32bllm2mbc7nsudd7x2qxd.wrapper.cpp";

Case embedding_case() {
  Case c;
  c.artifacts = {
      {k_package, ArtifactKind::package, 620094, true, "1 model (model), 13 entries"},
      {k_stderr, ArtifactKind::log, 3292, true, "12 events"},
      {k_dir + "/core.xz", ArtifactKind::core_dump, 3949452, false, "core dumps are not read yet"},
  };
  c.diagnostics = {{k_dir + "/core.xz", "xz-compressed ELF core: core dumps are not supported yet"}};

  aoti::model::ModelFacts model;
  model.name = "model";
  model.package = k_package;
  model.metadata = {
      {"AOTI_DEVICE_KEY", "cuda"}, {"AOTI_PLATFORM", "linux"}, {"AOTI_COMPUTE_CAPABILITY", "90"}};
  aoti::model::WrapperFacts wrapper;
  wrapper.where = {k_package, k_wrapper_entry, 0};
  wrapper.inputs = {{0, "arg3_1", 588}};
  wrapper.input_checks = {
      {0, "arg3_1", InputCheckKind::dtype, -1, 4, "at::kLong", 875},
      {0, "arg3_1", InputCheckKind::dim_min, 0, 2, "", 884},
      {0, "arg3_1", InputCheckKind::dim_max, 0, 64, "", 892},
      {0, "arg3_1", InputCheckKind::dim_min, 1, 2, "", 900},
      {0, "arg3_1", InputCheckKind::dim_max, 1, 2048, "", 908},
      {0, "arg3_1", InputCheckKind::stride_equal, 1, 1, "", 917},
      {0, "arg3_1", InputCheckKind::device_type, -1, 1, "cuda", 928},
  };
  wrapper.checks_gated_by_env = true;
  wrapper.gate_line = 946;
  for (const char* name :
       {"triton_poi_fused_embedding_0", "triton_poi_fused_1", "triton_red_fused_sum_view_2"}) {
    aoti::model::TritonKernel kernel;
    kernel.name = name;
    wrapper.kernels.push_back(kernel);
  }
  wrapper.link_cmd =
      "/usr/bin/g++ cdnctzzhd3tubc5ir4itscfgos625b32bllm2mbc7nsudd7x2qxd.wrapper.o -shared -fPIC";
  model.wrapper = wrapper;
  aoti::model::ElfFacts so;
  so.comments = {"GCC: (Ubuntu 13.3.0-6ubuntu2~24.04.1) 13.3.0"};
  model.so = so;
  c.models.push_back(model);
  return c;
}

std::vector<Finding> embedding_findings() {
  Finding oob;
  oob.check = "triton.index-out-of-bounds";
  oob.severity = Severity::error;
  oob.confidence = 0.95;
  oob.title = "Embedding ids out of range in triton_poi_fused_embedding_0 (input arg3_1, table of 1000 rows)";
  oob.message =
      "The device assert `index out of bounds: 0 <= tmp4 < 1000` fired 8 times in "
      "triton_poi_fused_embedding_0. tmp4 is tmp0 wrapped once for negative ids, and tmp0 is "
      "loaded from in_ptr0, which the wrapper binds to arg3_1, the model's input 0. So arg3_1 held "
      "an id >= 1000 or < -1000 for an embedding table of 1000 rows (emb.weight).";
  oob.why =
      "A device-side assert poisons the CUDA context: every later CUDA call fails, and the model "
      "cannot run again in this process. The package's input checks cover shapes and dtypes, "
      "never the values of ids, so nothing stops this input before the kernel.";
  oob.evidence = {
      {{k_package, k_wrapper_entry, 679},
       "tl.device_assert(((0 <= tmp4) & (tmp4 < 1000)) | ~(ymask), \"index out of bounds: 0 <= tmp4 < "
       "1000\")",
       "the bound the kernel was compiled with: the embedding table has 1000 rows"},
      {{k_package, k_wrapper_entry, 990},
       "call_triton_poi_fused_embedding_0(arg3_1, emb_weight, buf0, triton_poi_fused_embedding_0_ynumel, "
       "32L, ...);",
       "in_ptr0 is arg3_1"},
      {{k_stderr, "", 5},
       "...cd3okwxvqua6grd5jkdkkefdmhojjp54tdrdzwugize4oqluxxm3.py:33: unknown: block: [0,0,0], thread: "
       "[113,0,0] Assertion `index out of bounds: 0 <= tmp4 < 1000` failed.",
       "the assert that fired (8 times)"},
  };
  oob.next_steps = {
      {"re-package printing the kernel's inputs",
       "AOT_INDUCTOR_FILTERED_KERNELS_TO_PRINT=\"triton_poi_fused_embedding_0\" "
       "AOT_INDUCTOR_DEBUG_INTERMEDIATE_VALUE_PRINTER=2 python repro.py"},
      {"check the ids", "python -c \"import torch; x = torch.load('arg3_1.pt'); print(x.min().item(), x.max().item())\""},
  };
  oob.explains_failure = true;
  oob.subject = "kernel triton_poi_fused_embedding_0";
  oob.rank = 1;
  oob.fingerprint = "7c1e0d5f9a3b2e84";

  Finding gate;
  gate.check = "shape.input-checks-off";
  gate.severity = Severity::warning;
  gate.confidence = 0.7;
  gate.title = "Input checks are compiled in but were off (AOTI_RUNTIME_CHECK_INPUTS unset)";
  gate.message =
      "The wrapper checks arg3_1 (dim0 in [2, 64], dim1 in [2, 2048], int64, cuda) only when "
      "AOTI_RUNTIME_CHECK_INPUTS is set and not 0.";
  gate.why = "Without the checks, a wrong shape or device reaches the kernels and fails far from its cause.";
  gate.evidence = {{{k_package, k_wrapper_entry, 946},
                    "if (!_check_aoti_runtime_check_inputs_env()){",
                    "the gate in __check_inputs_outputs"}};
  gate.next_steps = {{"validate the inputs", "AOTI_RUNTIME_CHECK_INPUTS=1 python repro.py"}};
  gate.subject = "model model";
  gate.rank = 2;
  gate.fingerprint = "1b9f04c2d7e6a311";
  return {oob, gate};
}

// Unregistered check id, a pipe in the title, invalid UTF-8, backticks, a terminal escape and a
// 10 KB excerpt: everything an input file can smuggle into a finding.
std::vector<Finding> hostile_findings() {
  auto findings = embedding_findings();
  Finding bad;
  bad.check = "test.not-registered";
  bad.severity = Severity::note;
  bad.confidence = 0.1;
  bad.title = "a | b `tick` *star* <script>alert(1)</script> \xff\xfe";
  bad.message = "bad \xc3\x28 utf8 \x1b[31mred\x1b[0m\nsecond line | pipe ```fence``` # not a heading";
  bad.why = "- not a list item";
  std::string huge(10 * 1024, 'x');
  huge[5000] = '`';
  huge[6000] = '|';
  bad.evidence = {{{"weird dir/stderr log.txt", "", 3}, huge, "note with ``` and | and \xe2\x82"},
                  {{"", "", 0}, "orphan excerpt", ""}};
  bad.next_steps = {{"a | pipe and `code`", "echo '```' && printf '%s' \"a|b\""}, {"", "multi\nline ```` step"}};
  bad.subject = "hostile";
  bad.rank = 3;
  bad.fingerprint = "ffff";
  findings.push_back(bad);
  return findings;
}

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
    if (!std::isalnum(c) &&
        std::string_view("-._~:/?#[]@!$&'()*+,;=").find(static_cast<char>(c)) == std::string_view::npos)
      return false;
  }
  // A relative reference whose first segment holds a colon would parse as a scheme.
  const auto colon = uri.find(':');
  if (colon != std::string::npos && uri.compare(0, 5, "file:") != 0) return uri.find('/') < colon;
  return true;
}

void check_contract_json(const Json& j) {
  const std::set<std::string> top = {"schema", "tool", "artifacts", "models", "findings", "diagnostics"};
  std::set<std::string> keys;
  for (const auto& [key, value] : j.items()) keys.insert(key);
  CHECK(keys == top);
  CHECK(j["schema"] == "aoti-analyze/1");
  CHECK(j["tool"] == Json{{"name", "aoti-analyze"}, {"version", AOTI_ANALYZE_VERSION}});
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
      "rank",     "check",      "severity",    "confidence",       "title",  "message", "why",
      "evidence", "next_steps", "chain", "fingerprint", "explains_failure", "subject"};
  for (const auto& f : j["findings"]) {
    std::vector<std::string> order;
    for (const auto& [key, value] : f.items()) order.push_back(key);
    CHECK(order == finding_keys);
    CHECK(f["rank"].is_number_integer());
    CHECK(f["check"].is_string());
    CHECK((f["severity"] == "error" || f["severity"] == "warning" || f["severity"] == "note"));
    CHECK(f["confidence"].is_number());
    for (const char* key : {"title", "message", "why", "fingerprint", "subject"}) CHECK(f[key].is_string());
    CHECK(f["explains_failure"].is_boolean());
    for (const auto& step : f["next_steps"]) {
      CHECK(step["what"].is_string());
      CHECK(step["command"].is_string());
      CHECK((step["language"] == "sh" || step["language"] == "python" || step["language"] == "cpp"));
    }
    for (const auto& e : f["evidence"]) {
      CHECK(e.size() == 7);
      CHECK((e["kind"] == "quote" || e["kind"] == "fact"));
      // A quote has a line to be checked against; a fact may have none.
      if (e["kind"] == "quote") CHECK(e["line"].is_number_integer());
      CHECK((e["line_end"].is_null() || (e["line_end"].is_number_integer() && e["line_end"] > e["line"])));
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
    for (const auto& location : result.value("relatedLocations", Json::array())) check_location(location);
  }
  for (const auto& artifact : run["artifacts"])
    CHECK(is_valid_uri_reference(artifact["location"]["uri"].get<std::string>()));
  CHECK(run["invocations"][0]["executionSuccessful"] == true);
}

bool fences_balanced(const std::string& markdown) {
  std::size_t open = 0;  // length of the open fence, 0 when none
  std::size_t start = 0;
  while (start < markdown.size()) {
    const auto end = std::min(markdown.find('\n', start), markdown.size());
    const std::string_view line(markdown.data() + start, end - start);
    const auto ticks = line.find_first_not_of('`');
    const std::size_t run = ticks == std::string_view::npos ? line.size() : ticks;
    if (run >= 3) {
      if (open == 0)
        open = run;
      else if (run >= open && line.find_first_not_of('`', run) == std::string_view::npos)
        open = 0;
    }
    start = end + 1;
  }
  return open == 0;
}

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

bool valid_utf8(const std::string& text) {
  try {
    (void)Json(text).dump();
    return true;
  } catch (const Json::exception&) {
    return false;
  }
}

}  // namespace

TEST_SUITE_BEGIN("report");

TEST_CASE("aoti::report::render_json") {
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
    CHECK(Json::parse(aoti::report::render_json(c, one))["findings"][0]["evidence"][0]["line"].is_null());
  }
}

TEST_CASE("aoti::report::render_sarif") {
  const auto c = embedding_case();
  const auto findings = embedding_findings();
  const Json sarif = Json::parse(aoti::report::render_sarif(c, findings, aoti::checks::check_infos()));
  check_sarif(sarif, findings);
  const auto& result = sarif["runs"][0]["results"][0];
  CHECK(result["level"] == "error");

  SUBCASE("an entry inside a package: package uri, entry in the logical location, no region") {
    const auto& location = result["locations"][0];
    CHECK(location["physicalLocation"]["artifactLocation"]["uri"] == k_package);
    CHECK(location["physicalLocation"]["artifactLocation"]["index"] == 0);
    CHECK(!location["physicalLocation"].contains("region"));
    CHECK(location["logicalLocations"][0]["fullyQualifiedName"] == k_wrapper_entry + ":679");
  }
  SUBCASE("a line of the artifact itself: a region") {
    const auto& location = result["relatedLocations"][1];
    CHECK(location["physicalLocation"]["artifactLocation"]["uri"] == k_stderr);
    CHECK(location["physicalLocation"]["region"]["startLine"] == 5);
  }
  SUBCASE("absolute paths become file URIs, odd characters are percent-encoded") {
    auto odd = c;
    odd.artifacts[0].path = "/tmp/my models/a:b#1.pt2";
    auto one = findings;
    one[0].evidence[0].where.artifact = odd.artifacts[0].path;
    const Json out = Json::parse(aoti::report::render_sarif(odd, one, aoti::checks::check_infos()));
    CHECK(out["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] ==
          "file:///tmp/my%20models/a%3Ab%231.pt2");
  }
  SUBCASE("diagnostics become tool execution notifications") {
    const auto& notes = sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"];
    REQUIRE(notes.size() == 1);
    CHECK(notes[0]["message"]["text"] == c.diagnostics[0].message);
  }
  SUBCASE("a finding without evidence still has a location") {
    auto one = findings;
    one[1].evidence.clear();
    const Json out = Json::parse(aoti::report::render_sarif(c, one, aoti::checks::check_infos()));
    CHECK(out["runs"][0]["results"][1]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] ==
          k_package);
  }
}

TEST_CASE("aoti::report::render_markdown") {
  const auto c = embedding_case();
  const auto findings = embedding_findings();
  const auto md = aoti::report::render_markdown(c, findings);
  CHECK(md.rfind("# aoti-analyze report\n", 0) == 0);
  CHECK(md.find("**Verdict:** rank 1: Embedding ids out of range") != std::string::npos);
  const auto rows = table_rows(md, "| Rank | Severity | Check | Title |");
  REQUIRE(rows.size() == findings.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    CHECK(rows[i].rfind(fmt::format("| {} | {} | `{}` |", findings[i].rank,
                                    aoti::model::to_string(findings[i].severity), findings[i].check),
                        0) == 0);
    CHECK(cell_count(rows[i]) == 4);
  }
  CHECK(md.find("### 1. Embedding ids out of range") != std::string::npos);
  CHECK(md.find("### 2. Input checks are compiled in") != std::string::npos);
  CHECK(md.find("   ```sh\n   AOT_INDUCTOR_FILTERED_KERNELS_TO_PRINT=\"triton_poi_fused_embedding_0\"") !=
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

TEST_CASE("aoti::report::render_text") {
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
          line.find("python -c") != std::string::npos || line.find("call_triton") != std::string::npos ||
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

TEST_CASE("aoti::report: no findings") {
  const auto c = embedding_case();
  const std::vector<Finding> none;
  CHECK(aoti::report::render_text(c, none, false).rfind("no findings\n", 0) == 0);
  CHECK(aoti::report::render_markdown(c, none).find("**Verdict:** no findings") != std::string::npos);
  const Json j = Json::parse(aoti::report::render_json(c, none));
  check_contract_json(j);
  CHECK(j["findings"].empty());
  const Json sarif = Json::parse(aoti::report::render_sarif(c, none, aoti::checks::check_infos()));
  check_sarif(sarif, none);
  CHECK(sarif["runs"][0]["properties"]["verdict"] == "no findings");
}

TEST_CASE("aoti::report: hostile strings") {
  auto c = embedding_case();
  c.artifacts.push_back({"weird dir/stderr log.txt", ArtifactKind::log, 10, true, "a | b \xff"});
  c.diagnostics.push_back({"", "\xc0\xaf `x` | y"});
  const auto findings = hostile_findings();

  SUBCASE("json stays valid UTF-8 and keeps the contract") {
    const auto text = aoti::report::render_json(c, findings);
    CHECK(valid_utf8(text));
    const Json j = Json::parse(text);
    check_contract_json(j);
    CHECK(j["findings"][2]["evidence"][0]["excerpt"].get<std::string>().size() == 10 * 1024);
  }
  SUBCASE("sarif has a rule for an unregistered check and valid URIs") {
    const auto text = aoti::report::render_sarif(c, findings, aoti::checks::check_infos());
    CHECK(valid_utf8(text));
    const Json sarif = Json::parse(text);
    check_sarif(sarif, findings);
    CHECK(sarif["runs"][0]["results"][2]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] ==
          "weird%20dir/stderr%20log.txt");
  }
  SUBCASE("markdown keeps its tables and fences") {
    const auto md = aoti::report::render_markdown(c, findings);
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
  SUBCASE("text has no escape from the input, and valid UTF-8") {
    const auto plain = aoti::report::render_text(c, findings, false);
    CHECK(valid_utf8(plain));
    CHECK(plain.find('\x1b') == std::string::npos);
    CHECK(plain.find("\\x1b[31mred") != std::string::npos);
    CHECK(plain.size() < 20 * 1024);
  }
}

TEST_SUITE_END();

TEST_CASE("aoti::report::render_text wraps to the width it is given, in linear time") {
  const auto c = embedding_case();
  auto findings = embedding_findings();
  const auto narrow = aoti::report::render_text(c, findings, false, 60);
  // The prose of the first finding, wrapped under its label column (16) within 60 columns.
  const auto what = narrow.find("      what      ");
  REQUIRE(what != std::string::npos);
  for (std::size_t at = what; narrow.compare(at, 16, what == at ? "      what      " : "                ") == 0;) {
    const auto end = narrow.find('\n', at);
    CHECK(end - at <= 60);
    at = end + 1;
  }
  CHECK(narrow.find("   " + findings[0].next_steps[0].command + "\n") != std::string::npos);  // commands stay whole
  CHECK(aoti::report::render_text(c, findings, false) == aoti::report::render_text(c, findings, false, 100));

  // A 1 MiB word (a minified line, a base64 blob) is cut into lines of the width, not rescanned per line.
  findings[0].message = std::string(1 << 20, 'x') + " and " + std::string(1 << 20, 'y');
  const auto start = std::chrono::steady_clock::now();
  const auto huge = aoti::report::render_text(c, findings, false, 80);
  const auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(seconds < 2.0);
  CHECK(huge.find(std::string(80 - 16, 'x') + "\n") != std::string::npos);
  CHECK(static_cast<std::size_t>(std::count(huge.begin(), huge.end(), 'y')) >= (1u << 20));
}

TEST_CASE("aoti::report: stack-scan frames are shown apart, as candidates, in every writer") {
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
  thread.frames.push_back({0x7f20000030, "/tmp/x/model.so", 0x30, "torch::aot_inductor::AOTInductorModelBase::load_constants(bool)", 9,
                           "stack scan", k_package});
  thread.frames.push_back({0x7f20000040, "/tmp/x/model.so", 0x40, "AOTInductorModelContainerRun", 4, "stack scan", k_package});
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
