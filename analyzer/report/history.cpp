#include "analyzer/report/history.hpp"

#include <map>
#include <string_view>

#include <fmt/format.h>

namespace aoti::report {

std::string render_history(const scan::HistoryDb::History& h) {
  if (h.last_scan == 0) return "no scan recorded yet\n";
  std::string out = fmt::format(
      "scan {} ({}), compared with {}\n", h.last_scan, h.last_description,
      h.previous_scan ? fmt::format("scan {}", h.previous_scan) : "nothing (first scan)");
  const auto section = [&](std::string_view title,
                           const std::vector<scan::HistoryDb::FindingRow>& rows,
                           bool show_returns) {
    out += fmt::format("\n{} ({})\n", title, rows.size());
    std::map<std::string, int> per_check;
    for (const auto& r : rows) {
      ++per_check[r.check];
      out += fmt::format(
          "  {:<8} {:<32} {}  {}{}\n", r.severity, r.check, r.package, r.title,
          show_returns ? fmt::format("  (came back {}×, seen in {} scans)", r.returns, r.times_seen)
                       : "");
    }
    if (!per_check.empty()) {
      out += "  by check:";
      for (const auto& [check, n] : per_check) out += fmt::format(" {} {};", check, n);
      out += "\n";
    }
  };
  section("new since the previous scan", h.new_findings, false);
  section("fixed since the previous scan", h.fixed, false);
  section("keep coming back", h.recurring, true);
  out += fmt::format("\nopen in the last scan: {}\n", h.open.size());
  return out;
}

}  // namespace aoti::report
