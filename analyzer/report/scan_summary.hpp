// One package's line in every scan report (text, Markdown, HTML): its counts and its worst state.
#pragma once

#include <cstddef>
#include <string>

#include "analyzer/scan/package_result.hpp"

namespace aoti::report {

struct PackageCounts {
  std::size_t errors = 0, warnings = 0, notes = 0;
  std::size_t fresh = 0;  // findings new since the baseline
};
PackageCounts count_findings(const scan::PackageResult& result);

// "unreadable", "clean", or the worst finding's severity.
std::string worst_text(const scan::PackageResult& result);

// Finding `index` of `result` is new since the baseline.
bool is_new(const scan::PackageResult& result, std::size_t index);

}  // namespace aoti::report
