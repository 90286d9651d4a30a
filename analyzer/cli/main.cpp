// aoti-analyze: the only place that maps outcomes to exit codes.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "analyzer/cli/options.hpp"
#include "analyzer/core/analyze.hpp"
#include "analyzer/core/registry.hpp"
#include "analyzer/report/report.hpp"

namespace {

constexpr int k_exit_ok = 0;
constexpr int k_exit_findings = 1;
constexpr int k_exit_usage = 2;

int list_checks() {
  for (const auto& check : aoti::core::all_checks())
    std::cout << fmt::format("{:<34} {}\n", check->id(), check->summary());
  return k_exit_ok;
}

int explain(const std::string& id) {
  const auto* check = aoti::core::find_check(id);
  if (!check) {
    std::cerr << "aoti-analyze: no check '" << id << "'; --list-checks lists them\n";
    return k_exit_usage;
  }
  std::cout << check->doc();
  return k_exit_ok;
}

}  // namespace

int main(int argc, char** argv) {
  std::string error;
  const aoti::cli::Options options = aoti::cli::parse_options(argc, argv, error);
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
  if (options.inputs.empty()) {
    std::cerr << "aoti-analyze: no input given\n" << options.help_text;
    return k_exit_usage;
  }

  aoti::core::Case c = aoti::core::load_case(options.inputs);
  std::vector<aoti::core::Finding> findings = aoti::core::run_checks(c);
  aoti::core::rank(findings);

  const bool to_terminal = options.output.empty() && ::isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR");
  std::string report;
  switch (options.format) {
    case aoti::cli::Format::text: report = aoti::report::render_text(c, findings, to_terminal); break;
    case aoti::cli::Format::markdown: report = aoti::report::render_markdown(c, findings); break;
    case aoti::cli::Format::json: report = aoti::report::render_json(c, findings); break;
    case aoti::cli::Format::sarif: report = aoti::report::render_sarif(c, findings); break;
  }
  if (options.output.empty()) {
    std::cout << report;
  } else {
    std::ofstream out(options.output, std::ios::binary | std::ios::trunc);
    if (!out || !(out << report)) {
      std::cerr << "aoti-analyze: cannot write " << options.output << "\n";
      return k_exit_usage;
    }
  }
  // Diagnostics also go to stderr, so a report piped into a file still leaves a trace on the terminal.
  for (const auto& d : c.diagnostics) std::cerr << "aoti-analyze: " << d.artifact << ": " << d.message << "\n";

  if (!aoti::core::anything_analyzed(c)) return k_exit_usage;
  if (options.fail_on)
    for (const auto& f : findings)
      if (f.severity >= *options.fail_on) return k_exit_findings;
  return k_exit_ok;
}
