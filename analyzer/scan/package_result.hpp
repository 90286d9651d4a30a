// What a scan knows of one package: plain data that the scan produces, the history database stores,
// the JSONL codec reads and writes and the scan reports render.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analyzer/summary/model_summary.hpp"
#include "model/case.hpp"
#include "model/finding.hpp"

namespace aoti::scan {

enum class ScanStatus {
  analyzed,    // read and checked in this scan
  unchanged,   // the same content identity as in the history database: its stored result, reused
  unreadable,  // the package itself could not be read (or its analysis failed)
};
// "analyzed", "unchanged", "unreadable": the spelling in JSONL records and reports.
std::string_view to_string(ScanStatus status);

// A finding against a --baseline: not compared, new since the baseline, or in it already.
enum class FindingState { unknown, new_finding, still_there };

struct PackageResult {
  std::string package;
  std::string
      identity;  // content identity: entries' names, sizes and CRCs, .so build-ids, companions
  ScanStatus status = ScanStatus::unreadable;
  std::vector<std::string> companions;
  std::vector<summary::ModelSummary> models;
  std::vector<model::Finding> findings;
  std::vector<FindingState> states;  // aligned with findings
  std::vector<model::Diagnostic> diagnostics;
  std::vector<std::string> fixed;  // fingerprints in the baseline for this package, gone now
};

model::Severity worst_severity(const PackageResult& result);

}  // namespace aoti::scan
