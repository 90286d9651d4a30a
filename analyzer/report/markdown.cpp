// The bug-ticket report, GitHub-flavoured Markdown. Every string from an input goes through
// prose(), literal_text(), code_span() or fenced() (markdown_text.hpp), so that no input can open a
// table cell, a fence or raw HTML.
#include <algorithm>
#include <cctype>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analyzer/report/common.hpp"
#include "analyzer/report/markdown_text.hpp"
#include "analyzer/report/report.hpp"

namespace aoti::report {

namespace {
using markdown::code_span;
using markdown::fenced;
using markdown::one_line;
using markdown::prose;

constexpr std::size_t k_excerpt_width = 500;

// Every non-empty line of `text` prefixed with `indent`.
std::string indented(const std::string& text, std::string_view indent) {
  std::string out;
  for (std::size_t at = 0; at < text.size();) {
    const auto end = std::min(text.find('\n', at), text.size());
    if (end > at) out += std::string(indent) + text.substr(at, end - at);
    if (end < text.size()) out += '\n';
    at = end + 1;
  }
  return out;
}

void write_summary(std::string& out, const model::Case& c,
                   const std::vector<model::Finding>& findings) {
  out += "# aoti-analyze report\n\n";
  out += fmt::format("**Verdict:** {}\n\n", prose(verdict(findings)));
  out += fmt::format("{}, {}, {}.\n\n", plural(findings.size(), "finding"),
                     plural(c.artifacts.size(), "artifact"),
                     plural(c.diagnostics.size(), "diagnostic"));
  if (findings.empty()) return;
  out += "| Rank | Severity | Check | Title |\n| ---: | --- | --- | --- |\n";
  for (const auto& finding : findings)
    out += fmt::format("| {} | {} | {} | {} |\n", finding.rank, model::to_string(finding.severity),
                       code_span(finding.check, true), prose(finding.title, true));
  out += '\n';
}

void write_artifacts(std::string& out, const model::Case& c) {
  out += "## Artifacts\n\n";
  if (c.artifacts.empty()) {
    out += "None.\n\n";
    return;
  }
  out += "| Path | Kind | Size | Analyzed | Note |\n| --- | --- | ---: | --- | --- |\n";
  for (const auto& artifact : c.artifacts)
    out += fmt::format("| {} | {} | {} | {} | {} |\n", code_span(artifact.path, true),
                       model::to_string(artifact.kind), human_size(artifact.size),
                       artifact.analyzed ? "yes" : "no", prose(artifact.note, true));
  out += '\n';
}

void write_models(std::string& out, const model::Case& c) {
  for (const auto& model : c.models) {
    const ModelSummary summary = summarize(model);
    out += fmt::format("## Model {}\n\n", summary.name.empty() ? "?" : code_span(summary.name));
    if (!summary.package.empty())
      out += fmt::format("- **Package:** {}\n", code_span(summary.package));
    std::string device = summary.device.empty() ? "unknown" : summary.device;
    if (!summary.compute_capability.empty())
      device += fmt::format(", compute capability {}", summary.compute_capability);
    out += fmt::format("- **Device:** {}\n", prose(device));
    if (summary.inputs.empty())
      out += fmt::format("- **Inputs:** {}\n", model.wrapper ? "none" : "unknown (no wrapper)");
    else
      out += "- **Inputs:**\n";
    for (const auto& input : summary.inputs)
      out +=
          fmt::format("  - {}{}: {}\n", code_span(input.name),
                      input.user_name.empty() ? "" : " (your " + code_span(input.user_name) + ")",
                      prose(input.contract));
    out += fmt::format("- **Kernels:** {}\n",
                       summary.kernel_count ? plural(*summary.kernel_count, summary.kernel_kind)
                                            : "unknown (no wrapper)");
    std::vector<std::string> ops;
    for (const auto& op : summary.extern_ops) ops.push_back(code_span(op));
    out += fmt::format("- **Custom ops:** {}\n",
                       ops.empty() ? "none" : fmt::format("{}", fmt::join(ops, ", ")));
    out += fmt::format("- **Compiler:** {}\n\n",
                       summary.compiler.empty() ? "unknown" : prose(summary.compiler));
  }
}

void write_crashes(std::string& out, const model::Case& c) {
  for (const auto& core : c.cores) {
    const CrashSummary crash = summarize(core);
    out += fmt::format("## Crash in {}\n\n", code_span(crash.core));
    out += fmt::format("- **Signal:** {}\n", prose(crash.signal));
    if (!crash.thread.empty())
      out += fmt::format("- **Where:** {}\n",
                         prose(crash.thread + (crash.phase.empty() ? "" : ", " + crash.phase)));
    if (!crash.fault.empty()) out += fmt::format("- **Fault:** {}\n", prose(crash.fault));
    out += fmt::format("- **Process:** {}\n", code_span(crash.process));
    if (!crash.frames.empty()) {
      std::string frames;
      for (const auto& f : crash.frames) frames += truncate(f, 200) + "\n";
      out += "- **Frames:**\n\n" + fenced(frames, "text") + "\n";
    }
    if (!crash.candidates.empty()) {
      std::string frames;
      for (const auto& f : crash.candidates) frames += truncate(f, 200) + "\n";
      out += fmt::format("- **Candidates** ({}):\n\n",
                         prose(std::string(model::k_stack_scan_meaning))) +
             fenced(frames, "text") + "\n";
    }
    if (crash.frames.empty() && crash.candidates.empty()) out += "\n";
  }
}

void write_gpu_faults(std::string& out, const model::Case& c) {
  for (const auto& core : c.gpu_cores) {
    const auto fault = summarize(core);
    if (!fault) continue;
    out += fmt::format("## GPU fault in {}\n\n", code_span(fault->dump));
    out += fmt::format("- **Exception:** {}\n", prose(fault->exception));
    out += fmt::format("- **Where:** {}\n", code_span(fault->where));
    out += fmt::format("- **Thread:** {}\n", prose(fault->thread));
    out += fmt::format("- **Device:** {}\n\n", prose(fault->device));
  }
}

void write_finding(std::string& out, const model::Finding& finding) {
  out += fmt::format("### {}. {}\n\n", finding.rank, prose(finding.title));
  out += fmt::format("**{}** · {} · confidence {:.2f}{}\n\n", model::to_string(finding.severity),
                     code_span(finding.check), finding.confidence,
                     finding.explains_failure ? " · explains the observed failure" : "");
  if (!finding.message.empty()) out += prose(finding.message) + "\n\n";
  if (!finding.why.empty()) out += fmt::format("**Why it matters:** {}\n\n", prose(finding.why));
  if (!finding.evidence.empty()) {
    out += "**Evidence**\n\n";
    for (const auto& evidence : finding.evidence) {
      std::vector<std::string> lines;
      std::string head = code_span(evidence.where.display());
      if (!evidence.note.empty()) head += (head.empty() ? "" : " — ") + prose(evidence.note);
      if (!head.empty()) lines.push_back(std::move(head));
      // A multi-line excerpt (a thread's frames) keeps its lines in a block under the item. A
      // quote is code (the artifact's text); a derived fact is prose marked as such.
      const bool block = evidence.excerpt.find('\n') != std::string::npos;
      const bool quote = evidence.kind == model::EvidenceKind::quote;
      if (!evidence.excerpt.empty() && !block)
        lines.push_back(quote ? code_span(truncate(one_line(evidence.excerpt), k_excerpt_width))
                              : "derived: " +
                                    prose(truncate(one_line(evidence.excerpt), k_excerpt_width)));
      if (block && !quote) lines.push_back("derived:");
      if (lines.empty()) continue;
      // A trailing backslash is CommonMark's hard line break, which survives editors that
      // strip trailing spaces.
      out += fmt::format("- {}\n", fmt::join(lines, "\\\n  "));
      if (block) out += "\n" + indented(fenced(evidence.excerpt, "text"), "  ") + "\n";
    }
    out += '\n';
  }
  if (!finding.next_steps.empty()) {
    out += "**Next steps**\n\n";
    for (std::size_t i = 0; i < finding.next_steps.size(); ++i) {
      const auto& step = finding.next_steps[i];
      out +=
          fmt::format("{}. {}\n", i + 1, prose(step.what.empty() ? std::string("run") : step.what));
      if (step.command.empty()) continue;
      // Indented under its list item, so the block belongs to the step it explains.
      out += '\n' + indented(fenced(step.command, step.language), "   ") + "\n";
    }
  }
}

void write_diagnostics(std::string& out, const model::Case& c) {
  out += "## Diagnostics\n\n";
  if (c.diagnostics.empty()) out += "None.\n";
  const DiagnosticsView view = view_diagnostics(c.diagnostics);
  for (const std::string& line : view.summary) out += fmt::format("- {}\n", prose(line));
  for (const model::Diagnostic* diagnostic : view.whole) {
    const auto artifact = code_span(diagnostic->artifact);
    out += fmt::format("- {}{}\n", artifact.empty() ? "" : artifact + ": ",
                       prose(diagnostic->message));
  }
}

}  // namespace

std::string render_markdown(const model::Case& c, const std::vector<model::Finding>& findings) {
  std::string out;
  write_summary(out, c, findings);
  write_models(out, c);
  write_crashes(out, c);
  write_gpu_faults(out, c);
  out += "## Findings\n\n";
  if (findings.empty()) out += "No findings.\n\n";
  for (const auto& finding : findings) write_finding(out, finding);
  write_artifacts(out, c);
  write_diagnostics(out, c);
  return out;
}

}  // namespace aoti::report
