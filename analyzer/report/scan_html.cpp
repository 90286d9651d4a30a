// The HTML report of a scan: a table of packages, then each package's findings.
#include <fmt/format.h>

#include "analyzer/report/common.hpp"
#include "analyzer/report/html_parts.hpp"
#include "analyzer/report/scan_report.hpp"
#include "analyzer/report/scan_summary.hpp"

namespace aoti::report {

std::string render_scan_html(const std::vector<scan::PackageResult>& results) {
  using html::escape;
  std::string body =
      fmt::format("<h1>aoti-analyze scan</h1>\n<p class=\"verdict\">{} scanned</p>\n",
                  plural(results.size(), "package"));
  body +=
      "<table>\n<tr><th>Package</th><th>Worst</th><th>Errors</th><th>Warnings</th><th>Notes</"
      "th><th>New</th><th>Status</th></tr>\n";
  for (std::size_t p = 0; p < results.size(); ++p) {
    const auto& r = results[p];
    const PackageCounts counts = count_findings(r);
    const std::string worst = worst_text(r);
    body += fmt::format(
        "<tr><td><a href=\"#package-{}\"><code>{}</code></a></td><td><span class=\"sev "
        "{}\">{}</span></td>"
        "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
        p, escape(r.package), worst, worst, counts.errors, counts.warnings, counts.notes,
        counts.fresh, escape(scan::to_string(r.status)));
  }
  body += "</table>\n";
  for (std::size_t p = 0; p < results.size(); ++p) {
    const auto& r = results[p];
    body += fmt::format("<details id=\"package-{}\"{}><summary><code>{}</code> — {}</summary>\n", p,
                        r.findings.empty() ? "" : " open", escape(r.package),
                        plural(r.findings.size(), "finding"));
    for (std::size_t i = 0; i < r.findings.size(); ++i)
      body += html::finding_html(r.findings[i], is_new(r, i));
    for (const auto& d : r.diagnostics)
      body += fmt::format("<p class=\"meta\">{}: {}</p>\n", escape(d.artifact), escape(d.message));
    body += "</details>\n";
  }
  return html::page("aoti-analyze scan", body);
}

}  // namespace aoti::report
