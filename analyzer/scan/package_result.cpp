#include "analyzer/scan/package_result.hpp"

#include <algorithm>

namespace aoti::scan {

std::string_view to_string(ScanStatus status) {
  switch (status) {
    case ScanStatus::analyzed:
      return "analyzed";
    case ScanStatus::unchanged:
      return "unchanged";
    case ScanStatus::unreadable:
      break;
  }
  return "unreadable";
}

model::Severity worst_severity(const PackageResult& result) {
  model::Severity worst = model::Severity::note;
  for (const auto& f : result.findings) worst = std::max(worst, f.severity);
  return worst;
}

}  // namespace aoti::scan
