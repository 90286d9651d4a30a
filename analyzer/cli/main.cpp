// aoti-analyze: the only place that maps outcomes to exit codes.
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "analyzer/cli/options.hpp"
#include "analyzer/pipeline/analyze.hpp"
#include "checks/registry.hpp"
#include "analyzer/report/report.hpp"
#include "analyzer/report/scan_report.hpp"
#include "analyzer/scan/history_db.hpp"
#include "analyzer/scan/scan.hpp"
#include "parsers/coredump/core_reader.hpp"
#include "parsers/elf/elf_reader.hpp"
#include "parsers/pt2/pt2_package.hpp"
#include "parsers/trace/trace_reader.hpp"

namespace {

using aoti::cli::Format;
using aoti::cli::Options;

constexpr int k_exit_ok = 0;
constexpr int k_exit_findings = 1;
constexpr int k_exit_usage = 2;

int list_checks() {
  for (const auto& check : aoti::checks::all_checks())
    std::cout << fmt::format("{:<34} {}\n", check->id(), check->summary());
  return k_exit_ok;
}

int explain(const std::string& id) {
  const auto* check = aoti::checks::find_check(id);
  if (!check) {
    std::cerr << "aoti-analyze: no check '" << id << "'; --list-checks lists them\n";
    return k_exit_usage;
  }
  std::cout << check->doc();
  return k_exit_ok;
}

// --backtrace CORE [PACKAGE or MODEL .so...]: they serve their model .so for unwinding and symbols.
int backtrace(const Options& options) {
  std::vector<aoti::parsers::coredump::ModelObject> models;
  for (const auto& package : options.inputs) {
    if (!aoti::parsers::pt2::looks_like_pt2(package)) {
      // A bare model .so (torch._export.aot_compile) serves itself.
      auto so = aoti::parsers::elf::read_shared_object_file(package, {package, "", 0});
      if (so && aoti::parsers::elf::is_aoti_model(*so) && !so->build_id.empty()) {
        models.push_back({so->build_id, package, ""});
        continue;
      }
    }
    auto contents = aoti::parsers::pt2::read_package(package, package);
    if (!contents) {
      std::cerr << "aoti-analyze: " << package << ": " << contents.error().message << "\n";
      continue;
    }
    for (const auto& model : contents->models)
      if (model.so && !model.so->build_id.empty()) models.push_back({model.so->build_id, package, model.so->where.entry});
  }
  auto core = aoti::parsers::coredump::read_core(options.backtrace, options.backtrace, models);
  if (!core) {
    std::cerr << "aoti-analyze: " << options.backtrace << ": " << core.error().message << "\n";
    return k_exit_usage;
  }
  std::cout << aoti::parsers::coredump::render_backtrace(*core);
  return k_exit_ok;
}

// --summary TRACE: what a TORCH_TRACE log (or tlparse folder) holds, and what could not be read.
int summary(const Options& options) {
  auto read = aoti::parsers::trace::read_trace(options.summary, options.summary);
  if (!read) {
    std::cerr << "aoti-analyze: " << options.summary << ": " << read.error().message << "\n";
    return k_exit_usage;
  }
  std::cout << aoti::parsers::trace::render_trace_summary(read->facts);
  for (const auto& d : read->diagnostics) std::cout << "diagnostic: " << d.artifact << ": " << d.message << "\n";
  return k_exit_ok;
}

bool color_wanted(const Options& options) {
  return options.output.empty() && ::isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR");
}

// The text report's width: the terminal's when it goes to one ($COLUMNS, as the shell keeps it, else
// the terminal's own size), 100 columns for files and pipes.
std::size_t text_width(const Options& options) {
  if (!options.output.empty() || !::isatty(STDOUT_FILENO)) return aoti::report::k_default_text_width;
  if (const char* columns = std::getenv("COLUMNS")) {
    std::size_t value = 0;
    const std::string_view text(columns);
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec == std::errc() && end == text.data() + text.size() && value > 0) return value;
  }
  struct winsize size {};
  if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  return aoti::report::k_default_text_width;
}

// Writes the report where it was asked for; false (and a message) when it cannot.
bool emit(const Options& options, const std::string& report) {
  if (options.output.empty()) {
    std::cout << report;
    return true;
  }
  std::ofstream out(options.output, std::ios::binary | std::ios::trunc);
  if (!out || !(out << report)) {
    std::cerr << "aoti-analyze: cannot write " << options.output << "\n";
    return false;
  }
  return true;
}

int exit_for(const Options& options, const std::vector<aoti::model::Finding>& findings) {
  if (options.fail_on)
    for (const auto& f : findings)
      if (f.severity >= *options.fail_on) return k_exit_findings;
  return k_exit_ok;
}

int analyze(const Options& options) {
  if (options.inputs.empty()) {
    std::cerr << "aoti-analyze: no input given\n" << options.help_text;
    return k_exit_usage;
  }
  aoti::model::Case c = aoti::pipeline::load_case(options.inputs);
  std::vector<aoti::model::Finding> findings = aoti::pipeline::run_checks(c);
  aoti::pipeline::rank(findings);

  std::string report;
  switch (options.format) {
    case Format::text: report = aoti::report::render_text(c, findings, color_wanted(options), text_width(options)); break;
    case Format::markdown: report = aoti::report::render_markdown(c, findings); break;
    case Format::json: report = aoti::report::render_json(c, findings); break;
    case Format::sarif: report = aoti::report::render_sarif(c, findings, aoti::checks::check_infos()); break;
    case Format::html: report = aoti::report::render_html(c, findings); break;
    case Format::jsonl: break;  // refused by the option parser
  }
  if (!emit(options, report)) return k_exit_usage;
  if (options.verbose) {
    for (const auto& a : c.artifacts)
      std::cerr << fmt::format("aoti-analyze: read {} as {}: {}\n", a.path, aoti::model::to_string(a.kind), a.note);
    for (const auto& core : c.cores)
      for (const auto& note : core.health) std::cerr << "aoti-analyze: " << core.artifact << ": " << note << "\n";
  }
  // Diagnostics also go to stderr, so a report piped into a file still leaves a trace on the terminal.
  for (const auto& d : c.diagnostics) std::cerr << "aoti-analyze: " << d.artifact << ": " << d.message << "\n";
  if (!aoti::pipeline::anything_analyzed(c)) return k_exit_usage;
  return exit_for(options, findings);
}

std::string render_scan(const Options& options, const std::vector<aoti::scan::PackageResult>& results) {
  switch (options.format) {
    case Format::text: return aoti::report::render_scan_text(results, color_wanted(options));
    case Format::markdown: return aoti::report::render_scan_markdown(results);
    case Format::json:
    case Format::jsonl: return aoti::report::render_scan_jsonl(results);
    case Format::sarif: return aoti::report::render_scan_sarif(results, aoti::checks::check_infos());
    case Format::html: return aoti::report::render_scan_html(results);
  }
  return {};
}

// Progress on stderr: a bar that redraws itself on a terminal, one plain line per package elsewhere.
class Progress {
 public:
  Progress() : m_tty(::isatty(STDERR_FILENO)), m_start(std::chrono::steady_clock::now()) {}
  void operator()(const aoti::scan::PackageResult& r, std::size_t done, std::size_t total) {
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    const double rate = seconds > 0 ? static_cast<double>(done) / seconds : 0;
    if (!m_tty) {
      std::cerr << fmt::format("scan: [{}/{}] {} {} ({} finding(s))\n", done, total, r.status, r.package, r.findings.size());
      return;
    }
    constexpr int k_width = 30;
    const int filled = total ? static_cast<int>(k_width * done / total) : k_width;
    const double eta = rate > 0 ? static_cast<double>(total - done) / rate : 0;
    std::cerr << fmt::format("\r[{:=<{}}{:<{}}] {}/{} packages, {:.0f}/s, ETA {:.0f}s ", "", filled, "", k_width - filled,
                             done, total, rate, eta);
    if (done == total) std::cerr << "\n";
  }

 private:
  bool m_tty;
  std::chrono::steady_clock::time_point m_start;
};

int finish_scan(const Options& options, std::vector<aoti::scan::PackageResult>& results,
                aoti::scan::HistoryDb* db, const std::string& description) {
  std::sort(results.begin(), results.end(), [](const auto& a, const auto& b) { return a.package < b.package; });
  if (!options.baseline.empty()) {
    std::vector<aoti::model::Diagnostic> diagnostics;
    const auto baseline = aoti::scan::read_jsonl(options.baseline, diagnostics);
    for (const auto& d : diagnostics) std::cerr << "aoti-analyze: " << d.artifact << ": " << d.message << "\n";
    aoti::scan::compare_with_baseline(results, baseline);
  }
  if (db) {
    try {
      db->record(results, description);
    } catch (const std::exception& ex) {
      std::cerr << "aoti-analyze: " << options.db << ": " << ex.what() << "\n";
      return k_exit_usage;
    }
  }
  if (!emit(options, render_scan(options, results))) return k_exit_usage;
  std::vector<aoti::model::Finding> all;
  for (const auto& r : results) all.insert(all.end(), r.findings.begin(), r.findings.end());
  return exit_for(options, all);
}

std::unique_ptr<aoti::scan::HistoryDb> open_db(const Options& options, bool& failed) {
  failed = false;
  if (options.db.empty()) return nullptr;
  std::string error;
  auto db = aoti::scan::HistoryDb::open(options.db, error);
  if (!db) {
    std::cerr << "aoti-analyze: " << options.db << ": " << error << "\n";
    failed = true;
  }
  return db;
}

int scan(const Options& options) {
  if (options.inputs.empty()) {
    std::cerr << "aoti-analyze: scan needs at least one PATH\n";
    return k_exit_usage;
  }
  std::optional<aoti::scan::Shard> shard;
  if (!options.shard.empty() && !(shard = aoti::scan::parse_shard(options.shard))) {
    std::cerr << "aoti-analyze: --shard takes I/N with 0 <= I < N, e.g. 0/3\n";
    return k_exit_usage;
  }
  bool db_failed = false;
  auto db = open_db(options, db_failed);
  if (db_failed) return k_exit_usage;

  std::vector<aoti::model::Diagnostic> diagnostics;
  auto units = aoti::scan::discover(options.inputs, diagnostics);
  for (const auto& d : diagnostics) std::cerr << "aoti-analyze: " << d.artifact << ": " << d.message << "\n";
  if (shard)
    std::erase_if(units, [&](const aoti::scan::ScanUnit& u) { return !aoti::scan::in_shard(u.package, *shard); });

  aoti::scan::ScanOptions scan_options;
  scan_options.jobs = options.jobs;
  Progress progress;
  scan_options.on_result = [&](const auto& r, std::size_t done, std::size_t total) { progress(r, done, total); };
  if (db && !options.force)
    scan_options.reuse = [&](const aoti::scan::ScanUnit& unit, const std::string& identity) {
      return db->unchanged(unit.package, identity);
    };
  auto results = aoti::scan::run_scan(units, scan_options);
  std::string description = "scan";
  for (const auto& input : options.inputs) description += " " + input;
  if (shard) description += " --shard " + options.shard;
  return finish_scan(options, results, db.get(), description);
}

int merge(const Options& options) {
  if (options.inputs.empty()) {
    std::cerr << "aoti-analyze: merge needs the JSONL files of the shards\n";
    return k_exit_usage;
  }
  bool db_failed = false;
  auto db = open_db(options, db_failed);
  if (db_failed) return k_exit_usage;
  std::vector<aoti::scan::PackageResult> results;
  std::vector<aoti::model::Diagnostic> diagnostics;
  for (const auto& path : options.inputs) {
    auto part = aoti::scan::read_jsonl(path, diagnostics);
    std::move(part.begin(), part.end(), std::back_inserter(results));
  }
  for (const auto& d : diagnostics) std::cerr << "aoti-analyze: " << d.artifact << ": " << d.message << "\n";
  std::string description = "merge";
  for (const auto& input : options.inputs) description += " " + input;
  return finish_scan(options, results, db.get(), description);
}

int history(const Options& options) {
  bool db_failed = false;
  auto db = open_db(options, db_failed);
  if (db_failed) return k_exit_usage;
  try {
    return emit(options, aoti::scan::render_history(db->history())) ? k_exit_ok : k_exit_usage;
  } catch (const std::exception& ex) {
    std::cerr << "aoti-analyze: " << options.db << ": " << ex.what() << "\n";
    return k_exit_usage;
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string error;
  const Options options = aoti::cli::parse_options(argc, argv, error);
  if (!error.empty()) {
    std::cerr << "aoti-analyze: " << error << "\n" << "Try 'aoti-analyze --help'.\n";
    return k_exit_usage;
  }
  if (options.help) {
    std::cout << options.help_text;
    return k_exit_ok;
  }
  if (options.version) {
    std::cout << "aoti-analyze " << AOTI_ANALYZE_VERSION << "\n";
    return k_exit_ok;
  }
  if (options.list_checks) return list_checks();
  if (!options.explain.empty()) return explain(options.explain);
  if (!options.backtrace.empty()) return backtrace(options);
  if (!options.summary.empty()) return summary(options);
  switch (options.command) {
    case aoti::cli::Command::scan: return scan(options);
    case aoti::cli::Command::merge: return merge(options);
    case aoti::cli::Command::history: return history(options);
    case aoti::cli::Command::analyze: break;
  }
  return analyze(options);
}
