// Nightly scans: every package under some folders, each analyzed with the artifacts beside it,
// in parallel, one bad package never stopping the others.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/case.hpp"
#include "model/finding.hpp"

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
std::vector<ScanUnit> discover(const std::vector<std::string>& paths, std::vector<model::Diagnostic>& diagnostics);

enum class FindingState { unknown, new_finding, still_there };

struct PackageResult {
  std::string package;
  std::string identity;   // content identity: entries' names, sizes and CRCs, .so build-ids, companions
  std::string status;     // "analyzed", "unchanged" (reused from --db), "unreadable"
  std::vector<std::string> companions;
  nlohmann::ordered_json models = nlohmann::ordered_json::array();
  std::vector<model::Finding> findings;
  std::vector<FindingState> states;  // aligned with findings
  std::vector<model::Diagnostic> diagnostics;
  std::vector<std::string> fixed;    // fingerprints in the baseline for this package, gone now
};

// Content identity of a unit, cheap: the zip central directory and companions' sizes and times.
std::string identity_of(const ScanUnit& unit);

// Analyzes one unit: load, correlate, check, rank. Never throws.
PackageResult analyze_unit(const ScanUnit& unit, const std::string& identity);

struct ScanOptions {
  unsigned jobs = 0;  // 0: all cores
  // Called from the thread that collects results, in completion order; for progress output.
  std::function<void(const PackageResult&, std::size_t done, std::size_t total)> on_result;
  // Returns a stored result for an unchanged identity (from --db), or nullopt to analyze.
  std::function<std::optional<PackageResult>(const ScanUnit&, const std::string& identity)> reuse;
};

// Results in the order of `units`.
std::vector<PackageResult> run_scan(const std::vector<ScanUnit>& units, const ScanOptions& options);

// JSONL: one line per package.
std::string to_jsonl_line(const PackageResult& result);
std::optional<PackageResult> from_jsonl_line(const std::string& line);
std::vector<PackageResult> read_jsonl(const std::filesystem::path& path, std::vector<model::Diagnostic>& diagnostics);

// Marks each finding new / still there against a baseline, and lists what the baseline had for a
// package that is gone now (fixed).
void compare_with_baseline(std::vector<PackageResult>& results, const std::vector<PackageResult>& baseline);

model::Severity worst_severity(const PackageResult& result);

}  // namespace aoti::scan
