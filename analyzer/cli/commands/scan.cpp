// aoti-analyze scan PATH...: every package under PATH, each with the artifacts beside it.
#include <unistd.h>

#include <chrono>
#include <iostream>

#include <fmt/format.h>

#include "analyzer/cli/commands/commands.hpp"
#include "analyzer/cli/commands/scan_common.hpp"
#include "analyzer/cli/output.hpp"
#include "analyzer/report/common.hpp"
#include "analyzer/scan/scan.hpp"

namespace aoti::cli {
namespace {

// Progress on stderr: a bar that redraws itself on a terminal, one plain line per package
// elsewhere.
class Progress {
 public:
  Progress() : m_tty(::isatty(STDERR_FILENO)), m_start(std::chrono::steady_clock::now()) {}
  void operator()(const scan::PackageResult& r, std::size_t done, std::size_t total) {
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    const double rate = seconds > 0 ? static_cast<double>(done) / seconds : 0;
    if (!m_tty) {
      std::cerr << fmt::format("scan: [{}/{}] {} {} ({} finding(s))\n", done, total,
                               scan::to_string(r.status), r.package, r.findings.size());
      return;
    }
    constexpr int k_width = 30;
    const int filled = total ? static_cast<int>(k_width * done / total) : k_width;
    const double eta = rate > 0 ? static_cast<double>(total - done) / rate : 0;
    std::cerr << fmt::format("\r[{:=<{}}{:<{}}] {}/{} packages, {:.0f}/s, ETA {:.0f}s ", "", filled,
                             "", k_width - filled, done, total, rate, eta);
    if (done == total) std::cerr << "\n";
  }

 private:
  bool m_tty;
  std::chrono::steady_clock::time_point m_start;
};

}  // namespace

int run_scan(const Options& options) {
  if (options.inputs.empty()) {
    print_error("scan needs at least one PATH");
    return k_exit_usage;
  }
  std::optional<scan::Shard> shard;
  if (!options.shard.empty() && !(shard = scan::parse_shard(options.shard))) {
    print_error("--shard takes I/N with 0 <= I < N, e.g. 0/3");
    return k_exit_usage;
  }
  auto db = open_history(options);
  if (!db) return db.error();

  std::vector<model::Diagnostic> diagnostics;
  auto units = scan::discover(options.inputs, diagnostics);
  print_diagnostics(diagnostics);
  if (shard)
    std::erase_if(units,
                  [&](const scan::ScanUnit& u) { return !scan::in_shard(u.package, *shard); });

  scan::ScanOptions scan_options;
  scan_options.jobs = options.jobs;
  scan_options.verify_trace_payloads = options.verify;
  scan_options.summarize = [](const model::ModelFacts& model) { return report::summarize(model); };
  Progress progress;
  scan_options.on_result = [&](const auto& r, std::size_t done, std::size_t total) {
    progress(r, done, total);
  };
  if (*db && !options.force)
    scan_options.reuse = [&](const scan::ScanUnit& unit, const std::string& identity) {
      return (*db)->unchanged(unit.package, identity);
    };
  auto results = scan::run_scan(units, scan_options);
  std::string description = describe("scan", options);
  if (shard) description += " --shard " + options.shard;
  return finish_scan(options, results, db->get(), description);
}

}  // namespace aoti::cli
