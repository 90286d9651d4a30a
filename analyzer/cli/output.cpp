#include "analyzer/cli/output.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string_view>

#include "analyzer/report/common.hpp"
#include "analyzer/report/report.hpp"

namespace aoti::cli {

void print_diagnostics(const std::vector<model::Diagnostic>& diagnostics, bool verbose) {
  const auto print = [](const model::Diagnostic& d) {
    std::cerr << "aoti-analyze: " << (d.source == model::DiagnosticSource::check ? "check " : "")
              << d.artifact << ": " << d.message << "\n";
  };
  if (verbose) {
    for (const auto& d : diagnostics) print(d);
    return;
  }
  const report::DiagnosticsView view = report::view_diagnostics(diagnostics);
  for (const std::string& line : view.summary) std::cerr << "aoti-analyze: " << line << "\n";
  for (const model::Diagnostic* d : view.whole) print(*d);
}

void print_error(const std::string& message) { std::cerr << "aoti-analyze: " << message << "\n"; }

bool color_wanted(const Options& options) {
  return options.output.empty() && ::isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR");
}

std::size_t text_width(const Options& options) {
  if (!options.output.empty() || !::isatty(STDOUT_FILENO)) return report::k_default_text_width;
  if (const char* columns = std::getenv("COLUMNS")) {
    std::size_t value = 0;
    const std::string_view text(columns);
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec == std::errc() && end == text.data() + text.size() && value > 0) return value;
  }
  struct winsize size{};
  if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  return report::k_default_text_width;
}

bool emit(const Options& options, const std::string& report) {
  if (options.output.empty()) {
    std::cout << report;
    return true;
  }
  std::ofstream out(options.output, std::ios::binary | std::ios::trunc);
  if (!out || !(out << report)) {
    print_error("cannot write " + options.output);
    return false;
  }
  return true;
}

int exit_for(const Options& options, const std::vector<model::Finding>& findings) {
  if (options.fail_on)
    for (const auto& f : findings)
      if (f.severity >= *options.fail_on) return k_exit_findings;
  return k_exit_ok;
}

}  // namespace aoti::cli
