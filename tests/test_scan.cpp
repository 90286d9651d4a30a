// Scans end to end through the CLI: discovery, incremental runs with --db, history, baselines,
// shards and their merge, and a corrupt package in the tree.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "analyzer/scan/scan.hpp"
#include "tests/support.hpp"

namespace {
using namespace aoti::test;
namespace fs = std::filesystem;
using nlohmann::json;

std::vector<json> lines_of(const std::string& jsonl) {
  std::vector<json> out;
  std::istringstream in(jsonl);
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) out.push_back(json::parse(line));
  return out;
}

// A private copy of the corpus cases (packages and their logs), safe to modify.
fs::path copy_corpus(const TempDir& tmp) {
  const fs::path tree = tmp.path / "builds";
  for (const auto& name : k_corpus_cases) {
    fs::create_directories(tree / name);
    for (const char* file : {"model.pt2", "stderr.txt", "stdout.txt"})
      fs::copy_file(corpus_case(name) / file, tree / name / file);
  }
  return tree;
}

std::string q(const fs::path& p) { return shell_quote(p.string()); }

}  // namespace

TEST_CASE("scan: every package once, with the logs of its folder") {
  TempDir tmp;
  const fs::path tree = copy_corpus(tmp);
  const auto run = run_cli("scan --format jsonl " + q(tree));
  REQUIRE(run.exit_code == 0);
  const auto lines = lines_of(run.out);
  REQUIRE(lines.size() == k_corpus_cases.size());
  std::map<std::string, std::set<std::string>> checks;
  for (const auto& line : lines) {
    CHECK(line["status"] == "analyzed");
    CHECK(line["companions"].size() == 2);  // its stderr.txt and stdout.txt
    for (const auto& f : line["findings"])
      checks[fs::path(line["package"].get<std::string>()).parent_path().filename()].insert(
          f["check"]);
  }
  CHECK(checks["embedding-device-assert"].count("triton.index-out-of-bounds") == 1);
  CHECK(checks["input-check-errors"].count("device.input-mismatch") == 1);
  CHECK(checks["healthy-cuda-dynamic"] == std::set<std::string>{"shape.input-checks-off"});
  // Plain progress lines when not a terminal, the last one counting every package.
  const std::string all = std::to_string(k_corpus_cases.size());
  CHECK(run.err.find("scan: [" + all + "/" + all + "]") != std::string::npos);
}

TEST_CASE(
    "scan --db: unchanged packages are not analyzed again; a new package's findings are exactly "
    "the new ones") {
  TempDir tmp;
  const fs::path tree = copy_corpus(tmp);
  const fs::path db = tmp.path / "history.sqlite";
  const auto first = run_cli("scan --format jsonl --db " + q(db) + " " + q(tree));
  REQUIRE(first.exit_code == 0);

  const auto second = run_cli("scan --format jsonl --db " + q(db) + " " + q(tree));
  REQUIRE(second.exit_code == 0);
  for (const auto& line : lines_of(second.out)) CHECK(line["status"] == "unchanged");
  const auto history = run_cli("history --db " + q(db));
  REQUIRE(history.exit_code == 0);
  CHECK(history.out.find("new since the previous scan (0)") != std::string::npos);

  // A copy of one case with a different package.
  fs::create_directories(tree / "embedding-copy");
  fs::copy_file(corpus_case("embedding-device-assert") / "stderr.txt",
                tree / "embedding-copy" / "stderr.txt");
  fs::copy_file(corpus_package("input-check-errors"), tree / "embedding-copy" / "model.pt2");
  const auto third = run_cli("scan --format jsonl --db " + q(db) + " " + q(tree));
  REQUIRE(third.exit_code == 0);
  std::size_t expected_new = 0;
  for (const auto& line : lines_of(third.out)) {
    const bool is_copy =
        line["package"].get<std::string>().find("embedding-copy") != std::string::npos;
    CHECK(line["status"] == (is_copy ? "analyzed" : "unchanged"));
    if (is_copy) expected_new = line["findings"].size();
  }
  REQUIRE(expected_new > 0);
  const auto after = run_cli("history --db " + q(db));
  CHECK(after.out.find("new since the previous scan (" + std::to_string(expected_new) + ")") !=
        std::string::npos);
  std::istringstream in(after.out);
  std::string line;
  bool in_new = false;
  std::size_t new_rows = 0;
  while (std::getline(in, line)) {
    if (line.rfind("new since", 0) == 0)
      in_new = true;
    else if (line.rfind("fixed since", 0) == 0)
      in_new = false;
    else if (in_new && line.rfind("  by check", 0) != 0 && !line.empty()) {
      CHECK(line.find("embedding-copy") != std::string::npos);
      ++new_rows;
    }
  }
  CHECK(new_rows == expected_new);

  // --force analyzes everything again.
  const auto forced = run_cli("scan --format jsonl --force --db " + q(db) + " " + q(tree));
  for (const auto& l : lines_of(forced.out)) CHECK(l["status"] == "analyzed");
}

TEST_CASE(
    "scan --shard: the shards cover every package once, and their merge equals the whole scan") {
  TempDir tmp;
  const fs::path tree = copy_corpus(tmp);
  const auto whole = run_cli("scan --format jsonl " + q(tree));
  REQUIRE(whole.exit_code == 0);
  std::multiset<std::string> packages;
  std::string shard_files;
  for (int i = 0; i < 3; ++i) {
    const fs::path out = tmp.path / ("shard" + std::to_string(i) + ".jsonl");
    const auto shard = run_cli("scan --format jsonl --shard " + std::to_string(i) + "/3 -o " +
                               q(out) + " " + q(tree));
    REQUIRE(shard.exit_code == 0);
    for (const auto& line : lines_of(read_file(out))) packages.insert(line["package"]);
    shard_files += " " + q(out);
  }
  CHECK(packages.size() == k_corpus_cases.size());
  CHECK(std::set<std::string>(packages.begin(), packages.end()).size() == k_corpus_cases.size());
  const auto merged = run_cli("merge --format jsonl" + shard_files);
  REQUIRE(merged.exit_code == 0);
  CHECK(merged.out == whole.out);
  CHECK(run_cli("scan --shard 3/3 " + q(tree)).exit_code == 2);
}

TEST_CASE("scan: a corrupt package is reported as such, the others are analyzed") {
  TempDir tmp;
  const fs::path tree = copy_corpus(tmp);
  fs::create_directories(tree / "broken");
  const std::string bytes = read_file(corpus_package("healthy-cuda-dynamic"));
  write_file(tree / "broken" / "model.pt2", bytes.substr(0, bytes.size() / 3));
  const auto run = run_cli("scan --format jsonl --fail-on error " + q(tree));
  CHECK(run.exit_code == 1);  // the corpus has errors
  std::size_t analyzed = 0;
  for (const auto& line : lines_of(run.out)) {
    if (line["package"].get<std::string>().find("broken") != std::string::npos) {
      CHECK(line["status"] == "unreadable");
      REQUIRE(!line["diagnostics"].empty());
      CHECK(line["diagnostics"][0]["message"].get<std::string>().find("truncated") !=
            std::string::npos);
    } else {
      analyzed += line["status"] == "analyzed";
    }
  }
  CHECK(analyzed == k_corpus_cases.size());
}

TEST_CASE("scan --baseline: findings marked new or still there, and what was fixed") {
  TempDir tmp;
  const fs::path tree = copy_corpus(tmp);
  const fs::path before = tmp.path / "before.jsonl";
  REQUIRE(run_cli("scan --format jsonl -o " + q(before) + " " + q(tree)).exit_code == 0);
  // The input-check errors are gone from the next run's log: four findings fixed.
  write_file(tree / "input-check-errors" / "stderr.txt", "");
  const auto run = run_cli("scan --format jsonl --baseline " + q(before) + " " + q(tree));
  REQUIRE(run.exit_code == 0);
  for (const auto& line : lines_of(run.out)) {
    const bool changed =
        line["package"].get<std::string>().find("input-check-errors") != std::string::npos;
    // What explains the run's failure now: the runner's own error, and the checks that were off.
    for (const auto& f : line["findings"])
      CHECK(f["state"] == (changed && (f["check"] == "shape.input-checks-off" ||
                                       f["check"] == "runtime.runner-error")
                               ? "new"
                               : "still"));
    CHECK(line["fixed"].size() == (changed ? 4u : 0u));
  }
  const auto text = run_cli("scan --baseline " + q(before) + " " + q(tree));
  // Without the input-check errors, the run's API-call failures are explained by the runner's error
  // alone, with the input checks off: both are new.
  CHECK(text.out.find("NEW warning  shape.input-checks-off") != std::string::npos);
  CHECK(text.out.find("NEW error    runtime.runner-error") != std::string::npos);
}

TEST_CASE("scan --verify: a large trace's unused payloads are checked against their MD5") {
  TempDir tmp;
  const fs::path build = tmp.path / "builds" / "nightly";
  fs::create_directories(build);
  fs::copy_file(corpus_case("custom-op-fake-static-rows") / "model.pt2", build / "model.pt2");
  // A real trace, then an artifact no fact reads whose 65 MiB payload does not match its MD5: past
  // 64 MiB a log's unused payloads are checked only with --verify.
  std::string log;
  for (const auto& entry :
       fs::directory_iterator(corpus_case("custom-op-fake-static-rows") / "trace"))
    if (entry.path().filename().string().rfind("dedicated_log_torch_trace_", 0) == 0)
      log = read_file(entry.path());
  REQUIRE_FALSE(log.empty());
  log +=
      "V1129 07:41:33.791000 5575 torch/_logging/structured.py:100] "
      R"({"artifact": {"name": "big_blob", "encoding": "string"}, )"
      R"("has_payload": "00000000000000000000000000000000"})"
      "\n";
  const std::string line = "\t" + std::string(1023, 'x') + "\n";
  log.reserve(log.size() + (65u << 10) * line.size());
  for (int i = 0; i < (65 << 10); ++i) log += line;
  write_file(build / "dedicated_log_torch_trace_1.log", log);
  log.clear();
  log.shrink_to_fit();

  const auto messages = [](const std::string& jsonl) {
    std::string all;
    for (const auto& result : lines_of(jsonl))
      for (const auto& d : result["diagnostics"]) all += d["message"].get<std::string>() + "\n";
    return all;
  };
  const auto plain = run_cli("scan --format jsonl " + q(tmp.path / "builds"));
  REQUIRE(plain.exit_code == 0);
  CHECK(messages(plain.out).find(" payloads not checked (--verify checks them)") !=
        std::string::npos);
  CHECK(messages(plain.out).find("does not match its has_payload MD5") == std::string::npos);
  const auto verified = run_cli("scan --verify --format jsonl " + q(tmp.path / "builds"));
  REQUIRE(verified.exit_code == 0);
  CHECK(messages(verified.out)
            .find("artifact payload (66560 lines) does not match its "
                  "has_payload MD5") != std::string::npos);
  CHECK(messages(verified.out).find("not checked") == std::string::npos);
}

TEST_CASE("parse_shard and in_shard") {
  CHECK(aoti::scan::parse_shard("0/3").has_value());
  CHECK_FALSE(aoti::scan::parse_shard("3/3").has_value());
  CHECK_FALSE(aoti::scan::parse_shard("a/3").has_value());
  CHECK_FALSE(aoti::scan::parse_shard("1/0").has_value());
  const auto shard = *aoti::scan::parse_shard("1/4");
  CHECK(aoti::scan::in_shard("x/model.pt2", shard) == aoti::scan::in_shard("x/./model.pt2", shard));
}
