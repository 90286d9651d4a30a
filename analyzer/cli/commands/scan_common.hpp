// What scan and merge share: the --db history they record into, and how a set of results becomes
// a report, a history entry and an exit status.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <tl/expected.hpp>

#include "analyzer/cli/options.hpp"
#include "analyzer/scan/history_db.hpp"
#include "analyzer/scan/package_result.hpp"

namespace aoti::cli {

// The --db history: nullptr without --db; the error already told (exit k_exit_usage) when it
// cannot be opened.
tl::expected<std::unique_ptr<scan::HistoryDb>, int> open_history(const Options& options);

// "scan builds/ other/": how the history names the run (the command and its inputs).
std::string describe(std::string_view command, const Options& options);

// Sorts the results, marks them against --baseline, records them in `db` (when given), writes the
// report; the exit status.
int finish_scan(const Options& options, std::vector<scan::PackageResult>& results,
                scan::HistoryDb* db, const std::string& description);

}  // namespace aoti::cli
