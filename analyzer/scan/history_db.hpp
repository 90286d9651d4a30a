// The scan history (SQLite): every scan, every package with its content identity and last result,
// every finding with when it was first and last seen and how often it came back.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <tl/expected.hpp>

#include "analyzer/scan/package_result.hpp"

struct sqlite3;

namespace aoti::scan {

// Every operation returns SQLite's error as its message instead of throwing: a scan's worker
// threads ask the database, and the CLI tells the message.
class HistoryDb {
 public:
  template <class T>
  using Result = tl::expected<T, std::string>;

  // Opens or creates the database.
  static Result<std::unique_ptr<HistoryDb>> open(const std::string& path);
  ~HistoryDb();
  HistoryDb(const HistoryDb&) = delete;
  HistoryDb& operator=(const HistoryDb&) = delete;

  // The stored result of a package whose content identity did not change, marked unchanged;
  // nullopt when there is none.
  Result<std::optional<PackageResult>> unchanged(const std::string& package,
                                                 const std::string& identity);

  // Records one scan (all results in one transaction, rolled back on failure); returns its id.
  Result<long long> record(const std::vector<PackageResult>& results,
                           const std::string& description);

  struct FindingRow {
    std::string package;
    std::string check;
    std::string severity;
    std::string title;
    std::string fingerprint;
    long long first_scan = 0;
    long long last_scan = 0;
    long long times_seen = 0;
    long long returns = 0;  // times it reappeared after a scan that did not see it
  };
  struct History {
    long long last_scan = 0;      // 0 when there is no scan
    long long previous_scan = 0;  // 0 when there is only one
    std::string last_description;
    std::vector<FindingRow> new_findings;  // first seen in the last scan
    std::vector<FindingRow>
        fixed;  // seen in the previous scan, gone in the last (package rescanned)
    std::vector<FindingRow> recurring;  // came back at least once
    std::vector<FindingRow> open;       // seen in the last scan
  };
  Result<History> history();

 private:
  explicit HistoryDb(sqlite3* db) : m_db(db) {}
  // The bodies of record() and history(); their SQLite calls throw.
  long long record_in_transaction(const std::vector<PackageResult>& results,
                                  const std::string& description);
  History read_history();
  sqlite3* m_db;
};

}  // namespace aoti::scan
