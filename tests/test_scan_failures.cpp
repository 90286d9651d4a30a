// A scan survives what fails inside it: a history database of another schema, a throwing task, a
// store that answers with an error. Each becomes that package's `unreadable` result or a message
// and the documented exit status, never std::terminate (exit 134).
#include <doctest/doctest.h>

#include <sqlite3.h>

#include <stdexcept>

#include "analyzer/scan/history_db.hpp"
#include "analyzer/scan/scan.hpp"
#include "tests/support.hpp"

namespace {
using namespace aoti::test;
namespace fs = std::filesystem;

// A history database from before packages had an `identity` column.
fs::path old_schema_db(const TempDir& tmp) {
  const fs::path path = tmp.path / "old.sqlite";
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  REQUIRE(sqlite3_exec(db,
                       "CREATE TABLE packages(path TEXT PRIMARY KEY, first_scan INTEGER, last_scan "
                       "INTEGER, result TEXT)",
                       nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(db);
  return path;
}

aoti::summary::ModelSummary no_summary(const aoti::model::ModelFacts&) { return {}; }

}  // namespace

TEST_CASE("scan --db with a database of another schema: a message and exit 2, no abort") {
  TempDir tmp;
  const fs::path db = old_schema_db(tmp);
  const auto run = run_cli("scan " + shell_quote(corpus_case("healthy-cuda-dynamic").string()) +
                           " --db " + shell_quote(db.string()) + " --format jsonl -o /dev/null");
  CHECK(run.exit_code == 2);
  CHECK(run.err.find("terminate called") == std::string::npos);
  CHECK(run.err.find("aoti-analyze: " + db.string() + ": sqlite: ") != std::string::npos);
  CHECK(run.err.find("identity") != std::string::npos);
}

TEST_CASE("HistoryDb: SQLite's errors come back as values") {
  TempDir tmp;
  SUBCASE("a file that is no database cannot be opened") {
    write_file(tmp.path / "notes.txt", std::string(4096, 'x'));
    const auto db = aoti::scan::HistoryDb::open((tmp.path / "notes.txt").string());
    REQUIRE_FALSE(db);
    CHECK(db.error().find("is it an aoti-analyze history database?") != std::string::npos);
  }
  SUBCASE("a lookup and a record in a database of another schema") {
    auto db = aoti::scan::HistoryDb::open(old_schema_db(tmp).string());
    REQUIRE(db);
    const auto lookup = (*db)->unchanged("m.pt2", "0123");
    REQUIRE_FALSE(lookup);
    CHECK(lookup.error().find("identity") != std::string::npos);
    aoti::scan::PackageResult result;
    result.package = "m.pt2";
    const auto recorded = (*db)->record({result}, "scan m.pt2");
    REQUIRE_FALSE(recorded);
    CHECK(recorded.error().find("identity") != std::string::npos);
  }
}

TEST_CASE(
    "run_scan: a task that throws or a store that fails makes that package unreadable, with the "
    "reason") {
  const std::vector<aoti::scan::ScanUnit> units = {
      {"a/model.pt2", {}}, {"b/model.pt2", {}}, {"c/model.pt2", {}}};
  aoti::scan::ScanOptions options;
  options.jobs = 2;
  options.summarize = no_summary;
  options.reuse = [](const aoti::scan::ScanUnit& unit, const std::string&)
      -> tl::expected<std::optional<aoti::scan::PackageResult>, std::string> {
    if (unit.package == "a/model.pt2") throw std::runtime_error("boom");
    if (unit.package == "b/model.pt2") return tl::unexpected(std::string("database is locked"));
    return std::nullopt;  // analyze it: the file does not exist, so it is unreadable on its own
  };
  std::size_t reported = 0;
  options.on_result = [&](const aoti::scan::PackageResult&, std::size_t, std::size_t) {
    ++reported;
    throw std::runtime_error("progress output failed");
  };
  const auto results = aoti::scan::run_scan(units, options);
  REQUIRE(results.size() == 3);
  CHECK(reported == 3);
  for (const auto& r : results) {
    CHECK(r.status == aoti::scan::ScanStatus::unreadable);
    REQUIRE_FALSE(r.diagnostics.empty());
  }
  CHECK(results[0].package == "a/model.pt2");
  CHECK(results[0].diagnostics[0].message == "analysis failed: boom");
  CHECK(results[1].diagnostics[0].message == "history database: database is locked");
  CHECK(results[2].diagnostics.front().artifact == "c/model.pt2");
}
