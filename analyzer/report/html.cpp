// The HTML report of one case: one self-contained file (inline CSS and SVG, no script, no network).
// Every string from an input is sanitized, then HTML-escaped.
#include <algorithm>

#include <fmt/format.h>

#include "analyzer/report/common.hpp"
#include "analyzer/report/html_parts.hpp"
#include "analyzer/report/report.hpp"
#include "checks/support/crash.hpp"
#include "model/describe.hpp"

namespace aoti::report {
namespace {
using html::escape;
using html::finding_html;
using html::page;
using html::prose;

// The crashing thread's frames, innermost on top, the model's own frames highlighted.
std::string frames_svg(const model::CoreFacts& core) {
  const model::CoreThread* crashed = checks::crashing_thread(core);
  if (!crashed || crashed->frames.empty()) return "";
  // The unwound path, then, under a row that says what they are, the stack-scan candidates worth a
  // look.
  std::vector<std::size_t> path, candidates;
  for (std::size_t i = 0; i < crashed->frames.size(); ++i) {
    const auto& frame = crashed->frames[i];
    if (frame.unwound() && path.size() < 24) path.push_back(i);
    if (!frame.unwound() && (!frame.symbol.empty() || !frame.package.empty()) &&
        candidates.size() < 12)
      candidates.push_back(i);
  }
  const std::size_t shown = path.size() + (candidates.empty() ? 0 : candidates.size() + 1);
  constexpr int k_row = 26, k_width = 1000;
  const int height = static_cast<int>(shown) * k_row + 34;
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" "
      "height=\"{1}\" role=\"img\" "
      "aria-label=\"crashing thread frames\"><text x=\"8\" y=\"18\" font-size=\"13\" "
      "fill=\"#1d2330\">thread {2} "
      "({3}), innermost frame first; the model's frames are highlighted</text>",
      k_width, height, crashed->tid, escape(core.signal_name));
  int row = 0;
  const auto frame_row = [&](std::size_t i, bool candidate) {
    const auto& frame = crashed->frames[i];
    const int y = 28 + row++ * k_row;
    const std::string label = model::frame_text(frame, i);
    const bool model = !frame.package.empty();
    out += fmt::format(
        "<rect x=\"4\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"4\" fill=\"{}\" stroke=\"{}\"{}/>",
        y, k_width - 8, k_row - 4, model ? "#fdecea" : "#f3f5f8", model ? "#c62828" : "#dde1e7",
        candidate ? " stroke-dasharray=\"4 3\"" : "");
    out += fmt::format(
        "<text x=\"12\" y=\"{}\" font-family=\"monospace\" font-size=\"12\" fill=\"{}\">{}</text>",
        y + 16, candidate ? "#5b6474" : "#1d2330", escape(truncate(label, 130)));
  };
  for (std::size_t i : path) frame_row(i, false);
  if (!candidates.empty()) {
    out += fmt::format("<text x=\"8\" y=\"{}\" font-size=\"13\" fill=\"#1d2330\">{}</text>",
                       28 + row++ * k_row + 16, escape(std::string(model::k_stack_scan_label)));
    for (std::size_t i : candidates) frame_row(i, true);
  }
  return out + "</svg>";
}

std::string findings_table(const std::vector<model::Finding>& findings) {
  std::string out =
      "<table>\n<tr><th>Rank</th><th>Severity</th><th>Check</th><th>Title</th></tr>\n";
  for (const auto& f : findings) {
    const std::string sev(model::to_string(f.severity));
    out += fmt::format(
        "<tr><td><a href=\"#finding-{0}\">{0}</a></td><td><span class=\"sev {1}\">{1}</span></td>"
        "<td><code>{2}</code></td><td>{3}</td></tr>\n",
        f.rank, sev, escape(f.check), prose(f.title));
  }
  return out + "</table>\n";
}

}  // namespace

std::string render_html(const model::Case& c, const std::vector<model::Finding>& findings) {
  std::string body = "<h1>aoti-analyze report</h1>\n";
  body += fmt::format("<p class=\"verdict\">{}</p>\n", prose(verdict(findings)));
  if (!findings.empty()) body += findings_table(findings);
  for (const auto& model : c.models) {
    const ModelSummary s = summarize(model);
    body += fmt::format("<h2>Model <code>{}</code></h2>\n<table>\n", escape(s.name));
    body += fmt::format("<tr><th>Package</th><td><code>{}</code></td></tr>\n", escape(s.package));
    body += fmt::format(
        "<tr><th>Device</th><td>{}{}</td></tr>\n", escape(s.device.empty() ? "unknown" : s.device),
        s.compute_capability.empty() ? "" : ", compute capability " + escape(s.compute_capability));
    for (const auto& input : s.inputs)
      body += fmt::format(
          "<tr><th>Input <code>{}</th><td>{}</td></tr>\n",
          escape(input.name) + "</code>" +
              (input.user_name.empty() ? ""
                                       : " (your <code>" + escape(input.user_name) + "</code>)"),
          escape(input.contract));
    if (!s.extern_ops.empty()) {
      std::string ops;
      for (const auto& op : s.extern_ops)
        ops += (ops.empty() ? "" : ", ") + ("<code>" + escape(op) + "</code>");
      body += fmt::format("<tr><th>Custom ops</th><td>{}</td></tr>\n", ops);
    }
    if (!s.compiler.empty())
      body += fmt::format("<tr><th>Compiler</th><td>{}</td></tr>\n", escape(s.compiler));
    body += "</table>\n";
  }
  for (const auto& core : c.cores) {
    body += fmt::format("<h2>Crash: {} in <code>{}</code></h2>\n",
                        escape(core.signal_name.empty() ? "core" : core.signal_name),
                        escape(core.artifact));
    const CrashSummary crash = summarize(core);
    if (!crash.thread.empty())
      body += fmt::format("<p>Where: {}</p>\n",
                          escape(crash.thread + (crash.phase.empty() ? "" : ", " + crash.phase)));
    if (core.fault_address)
      body += fmt::format("<p>Fault address <code>0x{:x}</code>: {}</p>\n", *core.fault_address,
                          escape(core.fault_region));
    else if (!core.fault_region.empty())
      body += fmt::format("<p>Fault: {}</p>\n", escape(core.fault_region));
    body += frames_svg(core) + "\n";
  }
  for (const auto& core : c.gpu_cores) {
    const auto fault = summarize(core);
    if (!fault) continue;
    body += fmt::format(
        "<h2>GPU fault: {} in <code>{}</code></h2>\n<table>\n"
        "<tr><th>Where</th><td><code>{}</code></td></tr>\n"
        "<tr><th>Thread</th><td>{}</td></tr>\n<tr><th>Device</th><td>{}</td></tr>\n</table>\n",
        escape(fault->exception), escape(fault->dump), escape(fault->where), escape(fault->thread),
        escape(fault->device));
  }
  body += "<h2>Findings</h2>\n";
  if (findings.empty()) body += "<p>No findings.</p>\n";
  for (const auto& f : findings) body += finding_html(f, false);
  body +=
      "<h2>Artifacts</h2>\n<table>\n<tr><th>Path</th><th>Kind</th><th>Size</th><th>Analyzed</"
      "th><th>Note</th></tr>\n";
  for (const auto& a : c.artifacts)
    body += fmt::format(
        "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
        escape(a.path), model::to_string(a.kind), human_size(a.size), a.analyzed ? "yes" : "no",
        escape(a.note));
  body += "</table>\n<h2>Diagnostics</h2>\n";
  if (c.diagnostics.empty())
    body += "<p>None.</p>\n";
  else {
    body += "<ul>\n";
    const DiagnosticsView view = view_diagnostics(c.diagnostics);
    for (const std::string& line : view.summary) body += fmt::format("<li>{}</li>\n", escape(line));
    for (const model::Diagnostic* d : view.whole)
      body +=
          fmt::format("<li><code>{}</code>: {}</li>\n", escape(d->artifact), escape(d->message));
    body += "</ul>\n";
  }
  return page("aoti-analyze report", body);
}

}  // namespace aoti::report
