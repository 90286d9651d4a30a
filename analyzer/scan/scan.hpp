// Nightly scans: every package under some folders, each analyzed with the artifacts beside it,
// in parallel, one bad package never stopping the others.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <tl/expected.hpp>

#include "analyzer/scan/package_result.hpp"
#include "analyzer/summary/model_summary.hpp"
#include "model/case.hpp"

namespace aoti::scan {

// One package and the artifacts of the same build folder (logs, traces, cores, sources).
struct ScanUnit {
  std::string package;
  std::vector<std::string> companions;
};

struct Shard {
  unsigned index = 0;  // 0-based
  unsigned count = 1;
};
// "1/3" -> {1, 3}; nullopt when malformed or index >= count.
std::optional<Shard> parse_shard(std::string_view text);
// Deterministic: the same path lands in the same shard on every machine.
bool in_shard(const std::string& package_path, const Shard& shard);

// Finds packages by content (recursively, sorted) and groups each with its companions: the files
// below the package's folder whose nearest folder holding a package is that one.
std::vector<ScanUnit> discover(const std::vector<std::string>& paths,
                               std::vector<model::Diagnostic>& diagnostics);

// Content identity of a unit, cheap: the zip central directory and companions' sizes and times.
std::string identity_of(const ScanUnit& unit);

// How a scan keeps each model of a package: report::summarize, the one summary every format shows.
// Passed in so that the scan needs nothing of the report writers.
using SummarizeModel = std::function<summary::ModelSummary(const model::ModelFacts&)>;

// Analyzes one unit: load, correlate, check, rank, summarize. Never throws: a failure is an
// `unreadable` result whose diagnostic says why.
// `verify_trace_payloads`: check every TORCH_TRACE payload against its MD5 (--verify).
PackageResult analyze_unit(const ScanUnit& unit, const std::string& identity,
                           const SummarizeModel& summarize, bool verify_trace_payloads = false);

struct ScanOptions {
  unsigned jobs = 0;  // 0: all cores
  // Every TORCH_TRACE payload checked against its MD5, however large the log (--verify). Part of
  // a unit's identity: a result stored without it is not reused for a run with it.
  bool verify_trace_payloads = false;
  SummarizeModel summarize;
  // Called from the thread that collects results, in completion order; for progress output.
  std::function<void(const PackageResult&, std::size_t done, std::size_t total)> on_result;
  // Returns a stored result for an unchanged identity (from --db), nullopt to analyze, or the
  // store's error (the unit is then unreadable, with the message).
  std::function<tl::expected<std::optional<PackageResult>, std::string>(
      const ScanUnit&, const std::string& identity)>
      reuse;
};

// Results in the order of `units`. Never throws: whatever fails for one unit (its analysis, the
// reuse lookup) becomes that unit's `unreadable` result, the others go on.
std::vector<PackageResult> run_scan(const std::vector<ScanUnit>& units, const ScanOptions& options);

// The records of a JSONL file (io::from_jsonl_line); a line that is none is a diagnostic.
std::vector<PackageResult> read_jsonl(const std::filesystem::path& path,
                                      std::vector<model::Diagnostic>& diagnostics);

// Marks each finding new / still there against a baseline, and lists what the baseline had for a
// package that is gone now (fixed).
void compare_with_baseline(std::vector<PackageResult>& results,
                           const std::vector<PackageResult>& baseline);

}  // namespace aoti::scan
