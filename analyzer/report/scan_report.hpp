// Reports over a scan: one row per package, then the findings that need a look.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "analyzer/scan/package_result.hpp"
#include "checks/check.hpp"

namespace aoti::report {

std::string render_scan_text(const std::vector<scan::PackageResult>& results, bool color);
std::string render_scan_markdown(const std::vector<scan::PackageResult>& results);
std::string render_scan_jsonl(const std::vector<scan::PackageResult>& results);
// One SARIF run for every package.
std::string render_scan_sarif(const std::vector<scan::PackageResult>& results,
                              std::span<const checks::CheckInfo> checks);
std::string render_scan_html(const std::vector<scan::PackageResult>& results);

}  // namespace aoti::report
