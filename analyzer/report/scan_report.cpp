#include "analyzer/report/scan_report.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "analyzer/io/json_codec.hpp"
#include "analyzer/report/common.hpp"
#include "analyzer/report/markdown_text.hpp"
#include "analyzer/report/report.hpp"
#include "analyzer/report/scan_summary.hpp"

namespace aoti::report {

PackageCounts count_findings(const scan::PackageResult& r) {
  PackageCounts c;
  for (std::size_t i = 0; i < r.findings.size(); ++i) {
    const auto s = r.findings[i].severity;
    (s == model::Severity::error     ? c.errors
     : s == model::Severity::warning ? c.warnings
                                     : c.notes)++;
    if (is_new(r, i)) ++c.fresh;
  }
  return c;
}

std::string worst_text(const scan::PackageResult& r) {
  if (r.status == scan::ScanStatus::unreadable) return "unreadable";
  return r.findings.empty() ? "clean" : std::string(model::to_string(scan::worst_severity(r)));
}

bool is_new(const scan::PackageResult& r, std::size_t index) {
  return index < r.states.size() && r.states[index] == scan::FindingState::new_finding;
}

namespace {

bool compared(const std::vector<scan::PackageResult>& results) {
  for (const auto& r : results)
    for (auto s : r.states)
      if (s != scan::FindingState::unknown) return true;
  return false;
}

// The findings a person should read first: errors and warnings, the new ones first.
std::vector<std::pair<const scan::PackageResult*, std::size_t>> notable(
    const std::vector<scan::PackageResult>& results) {
  std::vector<std::pair<const scan::PackageResult*, std::size_t>> out;
  for (const auto& r : results)
    for (std::size_t i = 0; i < r.findings.size(); ++i)
      if (r.findings[i].severity != model::Severity::note) out.emplace_back(&r, i);
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    const bool a_new = is_new(*a.first, a.second);
    const bool b_new = is_new(*b.first, b.second);
    if (a_new != b_new) return a_new;
    return a.first->findings[a.second].severity > b.first->findings[b.second].severity;
  });
  return out;
}

}  // namespace

std::string render_scan_text(const std::vector<scan::PackageResult>& results, bool color) {
  const bool with_new = compared(results);
  std::size_t unreadable = 0, fresh = 0;
  for (const auto& r : results) {
    fresh += count_findings(r).fresh;
    unreadable += r.status == scan::ScanStatus::unreadable;
  }
  std::string out = fmt::format(
      "{} scanned: {} with errors, {} unreadable{}\n\n", plural(results.size(), "package"),
      std::count_if(results.begin(), results.end(),
                    [](const auto& r) { return count_findings(r).errors > 0; }),
      unreadable, with_new ? fmt::format(", {} new finding(s)", fresh) : "");
  const auto paint = [&](const std::string& text, const char* sgr) {
    return color ? fmt::format("\x1b[{}m{}\x1b[0m", sgr, text) : text;
  };
  out += fmt::format("  {:<10} {:>6} {:>8} {:>6} {}  {}\n", "worst", "errors", "warnings", "notes",
                     with_new ? "   new" : "", "package");
  for (const auto& r : results) {
    const PackageCounts c = count_findings(r);
    const std::string worst = worst_text(r);
    const char* sgr = worst == "error" || worst == "unreadable" ? "31"
                      : worst == "warning"                      ? "33"
                                                                : "32";
    out += fmt::format("  {} {:>6} {:>8} {:>6} {}  {}{}\n",
                       paint(fmt::format("{:<10}", worst), sgr), c.errors, c.warnings, c.notes,
                       with_new ? fmt::format("{:>6}", c.fresh) : "", sanitize(r.package),
                       r.status == scan::ScanStatus::unchanged ? "  (unchanged)" : "");
  }
  const auto list = notable(results);
  if (!list.empty()) out += "\nFindings to look at\n";
  for (const auto& [r, i] : list) {
    const auto& f = r->findings[i];
    out +=
        fmt::format("  {}{:<8} {:<32} {}\n      {}\n", is_new(*r, i) ? "NEW " : "",
                    model::to_string(f.severity), f.check, sanitize(r->package), sanitize(f.title));
  }
  for (const auto& r : results)
    for (const auto& d : r.diagnostics)
      out += fmt::format("\n  {}: {}", sanitize(d.artifact), sanitize(d.message));
  if (std::any_of(results.begin(), results.end(),
                  [](const auto& r) { return !r.diagnostics.empty(); }))
    out += "\n";
  return out;
}

std::string render_scan_markdown(const std::vector<scan::PackageResult>& results) {
  const bool with_new = compared(results);
  std::string out =
      fmt::format("# aoti-analyze scan\n\n{} scanned.\n\n", plural(results.size(), "package"));
  out +=
      with_new
          ? "| Package | Worst | Errors | Warnings | Notes | New |\n| --- | --- | ---: | ---: | "
            "---: | ---: |\n"
          : "| Package | Worst | Errors | Warnings | Notes |\n| --- | --- | ---: | ---: | ---: |\n";
  for (const auto& r : results) {
    const PackageCounts c = count_findings(r);
    out += fmt::format("| {} | {} | {} | {} | {} |{}\n", markdown::code_span(r.package, true),
                       worst_text(r), c.errors, c.warnings, c.notes,
                       with_new ? fmt::format(" {} |", c.fresh) : "");
  }
  const auto list = notable(results);
  if (!list.empty()) out += "\n## Findings to look at\n\n";
  for (const auto& [r, i] : list) {
    const auto& f = r->findings[i];
    out += fmt::format("- {}**{}** {} in {}: {}\n", is_new(*r, i) ? "🆕 " : "",
                       model::to_string(f.severity), markdown::code_span(f.check),
                       markdown::code_span(r->package), markdown::prose(f.title));
  }
  return out;
}

std::string render_scan_jsonl(const std::vector<scan::PackageResult>& results) {
  std::string out;
  for (const auto& r : results) out += io::to_jsonl_line(r) + "\n";
  return out;
}

std::string render_scan_sarif(const std::vector<scan::PackageResult>& results,
                              std::span<const checks::CheckInfo> checks) {
  // The single-case writer already knows SARIF; a scan is one case whose artifacts are the
  // packages.
  model::Case all;
  std::vector<model::Finding> findings;
  for (const auto& r : results) {
    all.artifacts.push_back({r.package, model::ArtifactKind::package, 0,
                             r.status != scan::ScanStatus::unreadable,
                             std::string(scan::to_string(r.status))});
    for (const auto& d : r.diagnostics) all.diagnostics.push_back(d);
    findings.insert(findings.end(), r.findings.begin(), r.findings.end());
  }
  return render_sarif(all, findings, checks);
}

}  // namespace aoti::report
