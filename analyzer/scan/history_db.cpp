#include "analyzer/scan/history_db.hpp"

#include <sqlite3.h>

#include <stdexcept>

#include <fmt/format.h>

#include "analyzer/io/json_codec.hpp"

namespace aoti::scan {
namespace {

// A prepared statement that finalizes itself; sqlite3's C API otherwise leaks on every early
// return.
class Statement {
 public:
  Statement(sqlite3* db, const char* sql) {
    if (sqlite3_prepare_v2(db, sql, -1, &m_stmt, nullptr) != SQLITE_OK)
      throw std::runtime_error(std::string("sqlite: ") + sqlite3_errmsg(db));
  }
  ~Statement() { sqlite3_finalize(m_stmt); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int index, const std::string& text) {
    sqlite3_bind_text(m_stmt, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Statement& bind(int index, long long value) {
    sqlite3_bind_int64(m_stmt, index, value);
    return *this;
  }
  bool step() {
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    throw std::runtime_error(std::string("sqlite: ") + sqlite3_errmsg(sqlite3_db_handle(m_stmt)));
  }
  void reset() {
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
  }
  std::string text(int column) const {
    const auto* p = sqlite3_column_text(m_stmt, column);
    return p ? std::string(reinterpret_cast<const char*>(p),
                           static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, column)))
             : "";
  }
  long long integer(int column) const { return sqlite3_column_int64(m_stmt, column); }

 private:
  sqlite3_stmt* m_stmt = nullptr;
};

void exec(sqlite3* db, const char* sql) {
  char* message = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &message) != SQLITE_OK) {
    std::string text = message ? message : "unknown error";
    sqlite3_free(message);
    throw std::runtime_error("sqlite: " + text);
  }
}

constexpr const char* k_schema = R"sql(
CREATE TABLE IF NOT EXISTS scans(
  id INTEGER PRIMARY KEY, started TEXT NOT NULL, description TEXT NOT NULL,
  packages INTEGER NOT NULL, analyzed INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS packages(
  path TEXT PRIMARY KEY, identity TEXT NOT NULL, first_scan INTEGER NOT NULL, last_scan INTEGER NOT NULL,
  result TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS findings(
  fingerprint TEXT NOT NULL, package TEXT NOT NULL, check_id TEXT NOT NULL, severity TEXT NOT NULL,
  title TEXT NOT NULL, first_scan INTEGER NOT NULL, last_scan INTEGER NOT NULL,
  times_seen INTEGER NOT NULL, returns INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY(fingerprint, package));
)sql";

HistoryDb::FindingRow row_of(const Statement& s) {
  return {s.text(0),    s.text(1),    s.text(2),    s.text(3),   s.text(4),
          s.integer(5), s.integer(6), s.integer(7), s.integer(8)};
}

// Runs `body`, whose SQLite calls throw, and returns its value or the error's message.
template <class F>
auto guarded(F body) -> HistoryDb::Result<decltype(body())> {
  try {
    return body();
  } catch (const std::exception& ex) {
    return tl::unexpected(std::string(ex.what()));
  }
}

constexpr const char* k_finding_columns =
    "package, check_id, severity, title, fingerprint, first_scan, last_scan, times_seen, returns";

}  // namespace

HistoryDb::Result<std::unique_ptr<HistoryDb>> HistoryDb::open(const std::string& path) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
      SQLITE_OK) {
    std::string error = db ? sqlite3_errmsg(db) : "cannot open";
    sqlite3_close(db);
    return tl::unexpected(std::move(error));
  }
  sqlite3_busy_timeout(db, 10000);
  try {
    exec(db, k_schema);
  } catch (const std::exception& ex) {
    sqlite3_close(db);
    return tl::unexpected(std::string(ex.what()) + " (is it an aoti-analyze history database?)");
  }
  return std::unique_ptr<HistoryDb>(new HistoryDb(db));
}

HistoryDb::~HistoryDb() { sqlite3_close(m_db); }

HistoryDb::Result<std::optional<PackageResult>> HistoryDb::unchanged(const std::string& package,
                                                                     const std::string& identity) {
  return guarded([&]() -> std::optional<PackageResult> {
    Statement s(m_db, "SELECT result FROM packages WHERE path = ? AND identity = ?");
    s.bind(1, package).bind(2, identity);
    if (!s.step()) return std::nullopt;
    auto result = io::from_jsonl_line(s.text(0));
    if (!result) return std::nullopt;
    result->status = ScanStatus::unchanged;
    result->states.assign(result->findings.size(), FindingState::unknown);
    result->fixed.clear();
    return result;
  });
}

HistoryDb::Result<long long> HistoryDb::record(const std::vector<PackageResult>& results,
                                               const std::string& description) {
  return guarded([&] { return record_in_transaction(results, description); });
}

long long HistoryDb::record_in_transaction(const std::vector<PackageResult>& results,
                                           const std::string& description) {
  exec(m_db, "BEGIN IMMEDIATE");
  try {
    long long analyzed = 0;
    for (const auto& r : results) analyzed += r.status == ScanStatus::analyzed;
    Statement scan(m_db,
                   "INSERT INTO scans(started, description, packages, analyzed) "
                   "VALUES(datetime('now'), ?, ?, ?)");
    scan.bind(1, description).bind(2, static_cast<long long>(results.size())).bind(3, analyzed);
    scan.step();
    const long long id = sqlite3_last_insert_rowid(m_db);

    Statement package(m_db,
                      "INSERT INTO packages(path, identity, first_scan, last_scan, result) "
                      "VALUES(?1, ?2, ?3, ?3, ?4) "
                      "ON CONFLICT(path) DO UPDATE SET identity = ?2, last_scan = ?3, result = ?4");
    Statement finding(
        m_db,
        "INSERT INTO findings(fingerprint, package, check_id, severity, title, first_scan, "
        "last_scan, "
        "times_seen) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?6, 1) "
        "ON CONFLICT(fingerprint, package) DO UPDATE SET severity = ?4, title = ?5, "
        "returns = returns + (last_scan < ?6 - 1), last_scan = ?6, times_seen = times_seen + 1");
    for (const auto& r : results) {
      PackageResult stored = r;
      stored.states.assign(stored.findings.size(), FindingState::unknown);
      stored.fixed.clear();
      package.bind(1, r.package).bind(2, r.identity).bind(3, id).bind(4, io::to_jsonl_line(stored));
      package.step();
      package.reset();
      for (const auto& f : r.findings) {
        finding.bind(1, f.fingerprint)
            .bind(2, r.package)
            .bind(3, f.check)
            .bind(4, std::string(model::to_string(f.severity)))
            .bind(5, f.title)
            .bind(6, id);
        finding.step();
        finding.reset();
      }
    }
    exec(m_db, "COMMIT");
    return id;
  } catch (...) {
    exec(m_db, "ROLLBACK");
    throw;
  }
}

HistoryDb::Result<HistoryDb::History> HistoryDb::history() {
  return guarded([&] { return read_history(); });
}

HistoryDb::History HistoryDb::read_history() {
  History h;
  {
    Statement s(m_db, "SELECT id, description FROM scans ORDER BY id DESC LIMIT 2");
    if (s.step()) {
      h.last_scan = s.integer(0);
      h.last_description = s.text(1);
    }
    if (s.step()) h.previous_scan = s.integer(0);
  }
  if (h.last_scan == 0) return h;
  const auto rows = [&](const std::string& where, auto bind) {
    std::vector<FindingRow> out;
    Statement s(
        m_db,
        fmt::format("SELECT {} FROM findings WHERE {} ORDER BY package, check_id, fingerprint",
                    k_finding_columns, where)
            .c_str());
    bind(s);
    while (s.step()) out.push_back(row_of(s));
    return out;
  };
  h.open = rows("last_scan = ?1", [&](Statement& s) { s.bind(1, h.last_scan); });
  h.new_findings = rows("first_scan = ?1", [&](Statement& s) { s.bind(1, h.last_scan); });
  h.recurring = rows("returns > 0", [](Statement&) {});
  if (h.previous_scan)
    // Gone from a package the last scan looked at again: fixed (a package left out of the last
    // scan, by sharding or deletion, proves nothing).
    h.fixed = rows("last_scan = ?1 AND package IN (SELECT path FROM packages WHERE last_scan = ?2)",
                   [&](Statement& s) { s.bind(1, h.previous_scan).bind(2, h.last_scan); });
  return h;
}

}  // namespace aoti::scan
