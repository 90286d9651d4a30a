// `aoti-analyze history --db FILE`: what is new, fixed and recurring since the previous scan.
#pragma once

#include <string>

#include "analyzer/scan/history_db.hpp"

namespace aoti::report {

std::string render_history(const scan::HistoryDb::History& history);

}  // namespace aoti::report
