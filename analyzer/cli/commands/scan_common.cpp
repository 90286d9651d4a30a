#include "analyzer/cli/commands/scan_common.hpp"

#include <algorithm>

#include "analyzer/cli/output.hpp"
#include "analyzer/report/scan_report.hpp"
#include "analyzer/scan/scan.hpp"
#include "checks/registry.hpp"

namespace aoti::cli {
namespace {

std::string render(const Options& options, const std::vector<scan::PackageResult>& results) {
  switch (options.format) {
    case Format::text:
      return report::render_scan_text(results, color_wanted(options));
    case Format::markdown:
      return report::render_scan_markdown(results);
    case Format::json:
    case Format::jsonl:
      return report::render_scan_jsonl(results);
    case Format::sarif:
      return report::render_scan_sarif(results, checks::check_infos());
    case Format::html:
      return report::render_scan_html(results);
  }
  return {};
}

}  // namespace

tl::expected<std::unique_ptr<scan::HistoryDb>, int> open_history(const Options& options) {
  if (options.db.empty()) return nullptr;
  auto db = scan::HistoryDb::open(options.db);
  if (!db) {
    print_error(options.db + ": " + db.error());
    return tl::unexpected(k_exit_usage);
  }
  return std::move(*db);
}

std::string describe(std::string_view command, const Options& options) {
  std::string description(command);
  for (const auto& input : options.inputs) description += " " + input;
  return description;
}

int finish_scan(const Options& options, std::vector<scan::PackageResult>& results,
                scan::HistoryDb* db, const std::string& description) {
  std::sort(results.begin(), results.end(),
            [](const auto& a, const auto& b) { return a.package < b.package; });
  if (!options.baseline.empty()) {
    std::vector<model::Diagnostic> diagnostics;
    const auto baseline = scan::read_jsonl(options.baseline, diagnostics);
    print_diagnostics(diagnostics);
    scan::compare_with_baseline(results, baseline);
  }
  if (db)
    if (const auto recorded = db->record(results, description); !recorded) {
      print_error(options.db + ": " + recorded.error());
      return k_exit_usage;
    }
  if (!emit(options, render(options, results))) return k_exit_usage;
  std::vector<model::Finding> all;
  for (const auto& r : results) all.insert(all.end(), r.findings.begin(), r.findings.end());
  return exit_for(options, all);
}

}  // namespace aoti::cli
