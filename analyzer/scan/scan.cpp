#include "analyzer/scan/scan.hpp"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <exception>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include <fmt/format.h>

#include "analyzer/io/json_codec.hpp"
#include "analyzer/pipeline/analyze.hpp"
#include "analyzer/pipeline/sniff.hpp"
#include "parsers/pt2/pt2_package.hpp"
#include "parsers/zip/zip_archive.hpp"
#include "util/fnv1a.hpp"
#include "util/line_reader.hpp"

namespace aoti::scan {
namespace fs = std::filesystem;
namespace {

using util::fnv1a;

constexpr std::size_t k_max_files = 1000000;

}  // namespace

std::optional<Shard> parse_shard(std::string_view text) {
  const auto slash = text.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  Shard shard;
  const auto index_text = text.substr(0, slash), count_text = text.substr(slash + 1);
  const auto [i_end, i_ec] =
      std::from_chars(index_text.data(), index_text.data() + index_text.size(), shard.index);
  const auto [c_end, c_ec] =
      std::from_chars(count_text.data(), count_text.data() + count_text.size(), shard.count);
  if (i_ec != std::errc() || c_ec != std::errc() ||
      i_end != index_text.data() + index_text.size() ||
      c_end != count_text.data() + count_text.size() || shard.count == 0 ||
      shard.index >= shard.count)
    return std::nullopt;
  return shard;
}

bool in_shard(const std::string& package_path, const Shard& shard) {
  return fnv1a(fs::path(package_path).lexically_normal().string()) % shard.count == shard.index;
}

std::vector<ScanUnit> discover(const std::vector<std::string>& paths,
                               std::vector<model::Diagnostic>& diagnostics) {
  std::vector<pipeline::SniffedInput> inputs =
      pipeline::gather_inputs(paths, diagnostics, k_max_files);
  std::set<fs::path> package_folders;
  std::vector<ScanUnit> units;
  for (const auto& input : inputs)
    // A zip that is no package is not one of ours; a .pt2 that cannot be read is, and is reported.
    if (input.kind == model::ArtifactKind::package &&
        (input.path.extension() == ".pt2" || parsers::pt2::looks_like_pt2(input.path))) {
      package_folders.insert(fs::path(input.display).lexically_normal().parent_path());
      units.push_back({input.display, {}});
    }
  std::map<fs::path, std::vector<std::size_t>> units_by_folder;
  for (std::size_t i = 0; i < units.size(); ++i)
    units_by_folder[fs::path(units[i].package).lexically_normal().parent_path()].push_back(i);
  for (const auto& input : inputs) {
    if (input.kind == model::ArtifactKind::package || input.kind == model::ArtifactKind::unknown)
      continue;
    // Companions of a package are its build folder's artifacts, not documentation or other zips.
    // The nearest enclosing folder that holds a package owns the file.
    for (fs::path folder = fs::path(input.display).lexically_normal().parent_path();;
         folder = folder.parent_path()) {
      if (auto it = units_by_folder.find(folder); it != units_by_folder.end()) {
        for (std::size_t i : it->second) units[i].companions.push_back(input.display);
        break;
      }
      if (folder.empty() || folder == folder.parent_path()) break;
    }
  }
  return units;
}

std::string identity_of(const ScanUnit& unit) {
  std::uint64_t hash = fnv1a("aoti-analyze/1");
  if (auto archive = parsers::zip::ZipArchive::open(unit.package)) {
    for (const auto& entry : archive->entries())
      hash = fnv1a(fmt::format("{}\n{}\n{:08x}\n", entry.name, entry.size, entry.crc), hash);
  } else {
    std::error_code ec;
    hash = fnv1a(fmt::format("unreadable {}", fs::file_size(unit.package, ec)), hash);
  }
  for (const auto& companion : unit.companions) {
    std::error_code ec;
    const auto size = fs::file_size(companion, ec);
    const auto time = fs::last_write_time(companion, ec).time_since_epoch().count();
    hash = fnv1a(fmt::format("{}\n{}\n{}\n", companion, size, time), hash);
  }
  return fmt::format("{:016x}", hash);
}

namespace {

// A unit whose analysis (or reuse lookup) failed: unreadable, and the diagnostic says why.
PackageResult failed_unit(const ScanUnit& unit, const std::string& identity,
                          const std::string& why) {
  PackageResult result;
  result.package = unit.package;
  result.identity = identity;
  result.companions = unit.companions;
  result.status = ScanStatus::unreadable;
  result.diagnostics.push_back({unit.package, why});
  return result;
}

std::string what_of(std::exception_ptr failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const std::exception& ex) {
    return ex.what();
  } catch (...) {
    return "unknown exception";
  }
}

}  // namespace

PackageResult analyze_unit(const ScanUnit& unit, const std::string& identity,
                           const SummarizeModel& summarize, bool verify_trace_payloads) {
  try {
    PackageResult result;
    result.package = unit.package;
    result.identity = identity;
    result.companions = unit.companions;
    std::vector<std::string> paths{unit.package};
    paths.insert(paths.end(), unit.companions.begin(), unit.companions.end());
    model::Case c = pipeline::load_case(paths, verify_trace_payloads);
    result.findings = pipeline::run_checks(c);
    pipeline::rank(result.findings);
    for (const auto& model : c.models) result.models.push_back(summarize(model));
    result.diagnostics = std::move(c.diagnostics);
    const bool package_read =
        std::any_of(c.artifacts.begin(), c.artifacts.end(),
                    [&](const model::Artifact& a) { return a.path == unit.package && a.analyzed; });
    result.status = package_read ? ScanStatus::analyzed : ScanStatus::unreadable;
    result.states.assign(result.findings.size(), FindingState::unknown);
    return result;
  } catch (...) {
    return failed_unit(unit, identity, "analysis failed: " + what_of(std::current_exception()));
  }
}

namespace {

// One unit, start to end, as ccache's ThreadPool runs a task: whatever it throws (the identity, the
// history lookup, the analysis) becomes this unit's unreadable result, never the process's end.
PackageResult execute_task(const ScanUnit& unit, const ScanOptions& options,
                           std::mutex& store_mutex) {
  std::string identity;
  try {
    identity = identity_of(unit) + (options.verify_trace_payloads ? "+verify" : "");
    if (options.reuse) {
      // The store is shared: one worker at a time asks it.
      std::unique_lock lock(store_mutex);
      auto reused = options.reuse(unit, identity);
      lock.unlock();
      if (!reused) return failed_unit(unit, identity, "history database: " + reused.error());
      if (*reused) return std::move(**reused);
    }
    return analyze_unit(unit, identity, options.summarize, options.verify_trace_payloads);
  } catch (...) {
    return failed_unit(unit, identity, "analysis failed: " + what_of(std::current_exception()));
  }
}

}  // namespace

std::vector<PackageResult> run_scan(const std::vector<ScanUnit>& units,
                                    const ScanOptions& options) {
  std::vector<std::optional<PackageResult>> slots(units.size());
  const unsigned jobs = std::max(
      1u, std::min<unsigned>(options.jobs ? options.jobs : std::thread::hardware_concurrency(),
                             static_cast<unsigned>(std::max<std::size_t>(units.size(), 1))));
  std::atomic<std::size_t> next{0};
  std::mutex done_mutex;
  std::size_t done = 0;
  auto worker = [&] {
    for (std::size_t i = next++; i < units.size(); i = next++) {
      PackageResult result = execute_task(units[i], options, done_mutex);
      std::lock_guard lock(done_mutex);
      slots[i] = std::move(result);
      ++done;
      if (!options.on_result) continue;
      try {
        options.on_result(*slots[i], done, units.size());
      } catch (...) {
        // Progress output only: failing to show it must not end the scan.
      }
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < jobs; ++t) threads.emplace_back(worker);
  worker();
  for (auto& thread : threads) thread.join();
  std::vector<PackageResult> results;
  results.reserve(units.size());
  for (auto& slot : slots) results.push_back(std::move(*slot));
  return results;
}

std::vector<PackageResult> read_jsonl(const fs::path& path,
                                      std::vector<model::Diagnostic>& diagnostics) {
  std::vector<PackageResult> results;
  // A record is one package's findings: kilobytes. A longer line is no record (and is not kept).
  constexpr std::size_t k_max_record = 64u << 20;
  util::LineReader reader(path, k_max_record);
  if (!reader.is_open()) {
    diagnostics.push_back({path.string(), "cannot read: " + reader.error()});
    return results;
  }
  util::Line line;
  while (reader.next(line)) {
    if (line.text.empty()) continue;
    std::optional<PackageResult> result;
    if (!line.cut()) result = io::from_jsonl_line(std::string(line.text));
    if (result)
      results.push_back(std::move(*result));
    else
      diagnostics.push_back(
          {path.string(), fmt::format("line {} is not an aoti-analyze scan record", line.number)});
  }
  if (!reader.error().empty())
    diagnostics.push_back({path.string(), "read error: " + reader.error()});
  return results;
}

void compare_with_baseline(std::vector<PackageResult>& results,
                           const std::vector<PackageResult>& baseline) {
  std::map<std::string, std::set<std::string>> before;  // package -> fingerprints
  for (const auto& old : baseline)
    for (const auto& f : old.findings) before[old.package].insert(f.fingerprint);
  for (auto& result : results) {
    const auto it = before.find(result.package);
    std::set<std::string> now;
    result.states.resize(result.findings.size());
    for (std::size_t i = 0; i < result.findings.size(); ++i) {
      now.insert(result.findings[i].fingerprint);
      result.states[i] = it != before.end() && it->second.count(result.findings[i].fingerprint)
                             ? FindingState::still_there
                             : FindingState::new_finding;
    }
    result.fixed.clear();
    if (it != before.end())
      for (const auto& fingerprint : it->second)
        if (!now.count(fingerprint)) result.fixed.push_back(fingerprint);
  }
}

}  // namespace aoti::scan
