// The terminal report: prose wrapped to the width asked for (the terminal's, else 100 columns)
// under aligned labels, commands and excerpts left unwrapped so that they can be copied as they
// are.
#include <algorithm>
#include <array>
#include <filesystem>
#include <map>
#include <string_view>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analyzer/report/common.hpp"
#include "analyzer/report/report.hpp"

namespace aoti::report {

namespace {

constexpr std::size_t k_min_width = 40;       // below it the label columns leave no room for prose
constexpr std::size_t k_excerpt_width = 240;  // a 10 KB minified line is no use on a terminal
constexpr std::size_t k_excerpt_lines = 16;

// Byte offset just past the first `width` code points of `utf8`.
std::size_t offset_of_width(std::string_view utf8, std::size_t width) {
  std::size_t seen = 0;
  for (std::size_t i = 0; i < utf8.size(); ++i) {
    if ((static_cast<unsigned char>(utf8[i]) & 0xC0) == 0x80) continue;
    if (seen++ == width) return i;
  }
  return utf8.size();
}

// Greedy word wrap; newlines in `text` start new lines, words wider than `width` are split. Linear
// in the text's size: each word's width is counted once, and a long word is cut piece by piece.
std::vector<std::string> wrap(std::string_view text, std::size_t width) {
  width = std::max<std::size_t>(width, 1);
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto newline = std::min(text.find('\n', start), text.size());
    const std::string_view paragraph = text.substr(start, newline - start);
    std::string line;
    std::size_t line_width = 0;
    std::size_t pos = 0;
    while (pos < paragraph.size()) {
      const auto word_begin = paragraph.find_first_not_of(" \t", pos);
      if (word_begin == std::string_view::npos) break;
      const auto word_end = std::min(paragraph.find_first_of(" \t", word_begin), paragraph.size());
      std::string_view word = paragraph.substr(word_begin, word_end - word_begin);
      pos = word_end;
      std::size_t word_width = display_width(word);
      while (word_width > width) {
        if (!line.empty()) lines.push_back(std::exchange(line, {}));
        const auto cut = offset_of_width(word, width);
        lines.emplace_back(word.substr(0, cut));
        word.remove_prefix(cut);
        word_width -= width;
        line_width = 0;
      }
      if (word_width == 0) continue;
      if (line_width > 0 && line_width + 1 + word_width > width) {
        lines.push_back(std::exchange(line, {}));
        line_width = 0;
      }
      if (line_width > 0) {
        line += ' ';
        ++line_width;
      }
      line += word;
      line_width += word_width;
    }
    if (!line.empty() || paragraph.find_first_not_of(" \t") == std::string_view::npos)
      lines.push_back(std::move(line));
    start = newline + 1;
  }
  return lines;
}

// The terminal style of each severity, in model::Severity order: note cyan, warning yellow, error
// red.
constexpr std::array<std::string_view, model::k_severity_names.size()> k_severity_styles = {
    "1;36", "1;33", "1;31"};
std::string_view severity_style(model::Severity severity) {
  return k_severity_styles[model::index_of(severity)];
}

class TextReport {
 public:
  TextReport(bool color, std::size_t width)
      : m_color(color), m_width(std::max(width, k_min_width)) {}

  std::size_t width() const { return m_width; }

  std::string take() { return std::move(m_out); }

  void line(std::string_view text = {}) {
    m_out += text;
    m_out += '\n';
  }

  std::string paint(std::string_view text, std::string_view sgr) const {
    if (!m_color) return std::string(text);
    return fmt::format("\x1b[{}m{}\x1b[0m", sgr, text);
  }

  // `label` in a column of `label_width` at `indent`, `content` wrapped beside it.
  void field(std::size_t indent, std::size_t label_width, std::string_view label,
             std::string_view content) {
    const std::size_t column = indent + label_width;
    const auto lines = wrap(content, m_width > column + 20 ? m_width - column : 20);
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const std::string_view head = i == 0 ? label : "";
      line(fmt::format("{:{}}{:<{}}{}", "", indent, head, label_width, lines[i]));
    }
  }

  // Like field(), but `content` is a location or a command: never wrapped, so it copies whole.
  void unwrapped_field(std::size_t indent, std::size_t label_width, std::string_view label,
                       std::string_view content) {
    const auto newline = std::min(content.find('\n'), content.size());
    line(fmt::format("{:{}}{:<{}}{}", "", indent, label, label_width, content.substr(0, newline)));
    if (newline < content.size()) verbatim(indent + label_width, content.substr(newline + 1));
  }

  // Lines as they are, each at `indent`: commands and source excerpts must survive copying.
  void verbatim(std::size_t indent, std::string_view text, std::string_view sgr = {}) {
    std::size_t start = 0;
    while (start <= text.size()) {
      const auto newline = std::min(text.find('\n', start), text.size());
      const auto piece = text.substr(start, newline - start);
      line(
          fmt::format("{:{}}{}", "", indent, sgr.empty() ? std::string(piece) : paint(piece, sgr)));
      start = newline + 1;
    }
  }

 private:
  bool m_color;
  std::size_t m_width;
  std::string m_out;
};

void write_summary(TextReport& out, const model::Case& c,
                   const std::vector<model::Finding>& findings) {
  out.line(out.paint(sanitize(verdict(findings)), "1"));
  std::size_t counts[3] = {0, 0, 0};
  for (const auto& finding : findings) ++counts[static_cast<int>(finding.severity)];
  std::vector<std::string> parts;
  for (auto severity : {model::Severity::error, model::Severity::warning, model::Severity::note})
    if (counts[static_cast<int>(severity)] > 0)
      parts.push_back(plural(counts[static_cast<int>(severity)], model::to_string(severity)));
  const auto analyzed = std::count_if(c.artifacts.begin(), c.artifacts.end(),
                                      [](const model::Artifact& a) { return a.analyzed; });
  out.line(fmt::format("{}{}, {} ({} analyzed), {}", plural(findings.size(), "finding"),
                       parts.empty() ? "" : fmt::format(" ({})", fmt::join(parts, ", ")),
                       plural(c.artifacts.size(), "artifact"), analyzed,
                       plural(c.diagnostics.size(), "diagnostic")));
}

// A tree of a thousand files: counts per kind and what was made of them, not a line per file.
// More inputs than this (an extension tree) are counted, not listed.
constexpr std::size_t k_max_listed_artifacts = 40;

void write_artifact_counts(TextReport& out, const model::Case& c) {
  std::map<std::pair<std::string, bool>, std::map<std::string, std::size_t>> groups;
  for (const auto& artifact : c.artifacts) {
    // A note's category: the words before its first number or comma ("c++ source" of "c++ source,
    // 2 op(s), ..."), so that per-file counts do not split a group.
    std::string category = artifact.note.substr(0, artifact.note.find_first_of(",0123456789"));
    while (!category.empty() && (category.back() == ' ' || category.back() == ';'))
      category.pop_back();
    ++groups[std::make_pair(std::string(model::to_string(artifact.kind)), artifact.analyzed)]
            [category];
  }
  out.field(2, 0, "",
            fmt::format("{} inputs; each one is listed with -v (on stderr) and in --format json",
                        c.artifacts.size()));
  for (const auto& [key, categories] : groups) {
    std::size_t total = 0;
    std::vector<std::pair<std::size_t, std::string>> counted;
    for (const auto& [category, count] : categories) {
      total += count;
      counted.emplace_back(count, category.empty() ? "no note" : category);
    }
    std::sort(counted.rbegin(), counted.rend());
    std::string parts;
    for (std::size_t i = 0; i < counted.size() && i < 4; ++i)
      parts += fmt::format("{}{}: {}", i ? "; " : "", counted[i].second, counted[i].first);
    if (counted.size() > 4) parts += fmt::format("; {} more", counted.size() - 4);
    out.field(2, 0, "",
              sanitize(fmt::format("{} {}: {} ({})", key.first,
                                   key.second ? "analyzed" : "not analyzed", total, parts)));
  }
}

void write_artifacts(TextReport& out, const model::Case& c) {
  out.line();
  out.line(out.paint("Artifacts", "1"));
  if (c.artifacts.empty()) {
    out.line("  none");
    return;
  }
  if (c.artifacts.size() > k_max_listed_artifacts) {
    write_artifact_counts(out, c);
    return;
  }
  std::size_t kind_width = 0, size_width = 0;
  for (const auto& artifact : c.artifacts) {
    kind_width = std::max(kind_width, model::to_string(artifact.kind).size());
    size_width = std::max(size_width, human_size(artifact.size).size());
  }
  constexpr std::string_view k_not_analyzed = "not analyzed";
  const std::size_t path_column = 2 + kind_width + 2 + k_not_analyzed.size() + 2 + size_width + 2;
  for (const auto& artifact : c.artifacts) {
    const std::string status = artifact.analyzed ? "analyzed" : std::string(k_not_analyzed);
    const std::string path = sanitize(artifact.path);
    out.line(fmt::format("  {:<{}}  {:<{}}  {:>{}}  {}", model::to_string(artifact.kind),
                         kind_width, status, k_not_analyzed.size(), human_size(artifact.size),
                         size_width, path));
    if (!artifact.note.empty()) out.field(path_column, 0, "", sanitize(artifact.note));
  }
}

void write_models(TextReport& out, const model::Case& c) {
  constexpr std::size_t k_label = 12;
  for (const auto& model : c.models) {
    const ModelSummary summary = summarize(model);
    out.line();
    out.line(out.paint(sanitize(fmt::format("Model {}", summary.name.empty() ? "?" : summary.name)),
                       "1") +
             (summary.package.empty() ? "" : sanitize(fmt::format(" in {}", summary.package))));
    std::string device = summary.device.empty() ? "unknown" : summary.device;
    if (!summary.compute_capability.empty())
      device += fmt::format(", compute capability {}", summary.compute_capability);
    out.field(2, k_label, "device", sanitize(device));
    if (summary.inputs.empty())
      out.field(2, k_label, "inputs", model.wrapper ? "none" : "unknown (no wrapper)");
    for (std::size_t i = 0; i < summary.inputs.size(); ++i)
      out.field(2, k_label, i == 0 ? "inputs" : "",
                sanitize(fmt::format("{}{}: {}", summary.inputs[i].name,
                                     summary.inputs[i].user_name.empty()
                                         ? ""
                                         : " (your `" + summary.inputs[i].user_name + "`)",
                                     summary.inputs[i].contract)));
    out.field(2, k_label, "kernels",
              summary.kernel_count ? plural(*summary.kernel_count, summary.kernel_kind)
                                   : "unknown (no wrapper)");
    out.field(2, k_label, "custom ops",
              summary.extern_ops.empty()
                  ? "none"
                  : sanitize(fmt::format("{}", fmt::join(summary.extern_ops, ", "))));
    out.field(2, k_label, "compiler",
              summary.compiler.empty() ? "unknown" : sanitize(summary.compiler));
  }
}

void write_crashes(TextReport& out, const model::Case& c) {
  constexpr std::size_t k_label = 12;
  for (const auto& core : c.cores) {
    const CrashSummary crash = summarize(core);
    out.line();
    out.line(out.paint("Crash", "1") + sanitize(" in " + crash.core));
    out.field(2, k_label, "signal", sanitize(crash.signal));
    if (!crash.thread.empty())
      out.field(2, k_label, "where",
                sanitize(crash.thread + (crash.phase.empty() ? "" : ", " + crash.phase)));
    if (!crash.fault.empty()) out.field(2, k_label, "fault", sanitize(crash.fault));
    out.field(2, k_label, "process", sanitize(crash.process));
    for (std::size_t i = 0; i < crash.frames.size(); ++i)
      out.field(2, k_label, i == 0 ? "frames" : "", sanitize(truncate(crash.frames[i], 140)));
    if (!crash.candidates.empty())
      out.field(2, k_label, "candidates", std::string(model::k_stack_scan_meaning));
    for (const auto& candidate : crash.candidates)
      out.field(2, k_label, "", sanitize(truncate(candidate, 140)));
  }
}

void write_gpu_faults(TextReport& out, const model::Case& c) {
  constexpr std::size_t k_label = 12;
  for (const auto& core : c.gpu_cores) {
    const auto fault = summarize(core);
    if (!fault) continue;
    out.line();
    out.line(out.paint("GPU fault", "1") + sanitize(" in " + fault->dump));
    out.field(2, k_label, "exception", sanitize(fault->exception));
    out.field(2, k_label, "where", sanitize(fault->where));
    out.field(2, k_label, "thread", sanitize(fault->thread));
    out.field(2, k_label, "device", sanitize(fault->device));
  }
}

void write_finding(TextReport& out, const model::Finding& finding) {
  constexpr std::size_t k_indent = 6, k_label = 10;
  const std::size_t column = k_indent + k_label;
  out.line();
  std::string qualifiers = fmt::format("confidence {:.2f}", finding.confidence);
  if (finding.explains_failure) qualifiers += ", explains the observed failure";
  const std::string severity(model::to_string(finding.severity));
  out.line(fmt::format(
      "  {:<4}{}  {}  ({})", fmt::format("#{}", finding.rank),
      out.paint(severity, severity_style(finding.severity)) + std::string(7 - severity.size(), ' '),
      sanitize(finding.check), qualifiers));
  for (const auto& title_line : wrap(sanitize(finding.title), out.width() - k_indent))
    out.line(fmt::format("{:{}}{}", "", k_indent, out.paint(title_line, "1")));
  if (!finding.message.empty()) out.field(k_indent, k_label, "what", sanitize(finding.message));
  if (!finding.why.empty()) out.field(k_indent, k_label, "why", sanitize(finding.why));
  for (std::size_t i = 0; i < finding.evidence.size(); ++i) {
    const auto& evidence = finding.evidence[i];
    const std::string where = sanitize(evidence.where.display());
    out.unwrapped_field(k_indent, k_label, i == 0 ? "evidence" : "",
                        where.empty() ? "(no location)" : where);
    if (!evidence.note.empty()) out.field(column + 2, 0, "", sanitize(evidence.note));
    // A quote gets a gutter with its line numbers, as compilers print source lines; a derived
    // fact gets none, so it is never read as the artifact's text.
    if (!evidence.excerpt.empty()) {
      const bool quote = evidence.kind == model::EvidenceKind::quote && evidence.where.line > 0;
      const int last_line = std::max(evidence.where.line, evidence.line_end);
      const std::size_t number_width = std::to_string(last_line).size();
      // Each line is cut on its own, so a multi-line excerpt (a thread's frames) keeps every line.
      const std::string text = sanitize(evidence.excerpt);
      std::string excerpt;
      std::size_t lines = 0;
      for (std::size_t start = 0; start <= text.size() && lines < k_excerpt_lines; ++lines) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        if (lines > 0) excerpt += "\n";
        if (quote)
          excerpt +=
              fmt::format("{:>{}} | ", evidence.where.line + static_cast<int>(lines), number_width);
        else
          excerpt += lines == 0 ? "derived: " : "         ";
        excerpt += truncate(std::string_view(text).substr(start, end - start), k_excerpt_width);
        start = end + 1;
      }
      out.verbatim(column + 2, excerpt);
    }
  }
  for (std::size_t i = 0; i < finding.next_steps.size(); ++i) {
    const auto& step = finding.next_steps[i];
    out.field(k_indent, k_label, i == 0 ? "next" : "",
              sanitize(fmt::format("{}. {}", i + 1, step.what)));
    // Commands are never wrapped, so they can be copied as they are.
    if (!step.command.empty()) {
      out.verbatim(k_indent + k_label + 3, sanitize(step.command));
    }
  }
}

void write_diagnostics(TextReport& out, const model::Case& c) {
  out.line();
  out.line(out.paint("Diagnostics", "1"));
  if (c.diagnostics.empty()) out.line("  none");
  const DiagnosticsView view = view_diagnostics(c.diagnostics);
  for (const std::string& line : view.summary) out.field(2, 0, "", sanitize(line));
  for (const model::Diagnostic* diagnostic : view.whole)
    out.field(2, 0, "", sanitize(fmt::format("{}: {}", diagnostic->artifact, diagnostic->message)));
}

// The ops the sources define or implement: each with its schema's place and kernels when few;
// for a tree, the counts, then the ops without a fake / Meta kernel and the ops implemented but
// never defined (the JSON report lists every op).
void write_ops(TextReport& out, const model::Case& c) {
  const auto ops = op_inventory(c);
  if (ops.empty()) return;
  constexpr std::size_t k_max_listed_ops = 25;
  std::size_t defined = 0, with_fake = 0;
  std::vector<const OpInventoryEntry*> no_fake, undefined;
  for (const auto& op : ops) {
    defined += !op.defined_in.empty();
    with_fake += op.fake;
    if (!op.defined_in.empty() && !op.fake) no_fake.push_back(&op);
    if (op.defined_in.empty()) undefined.push_back(&op);
  }
  out.line();
  out.line(out.paint("Ops", "1"));
  out.field(
      2, 0, "",
      fmt::format("{} op(s) in the sources: {} defined by a schema there, {} with a kernel "
                  "that runs on fake tensors (Meta, a fake, a composite){}",
                  ops.size(), defined, with_fake,
                  ops.size() > k_max_listed_ops ? "; every op is listed in --format json" : ""));
  const auto place = [](const std::string& artifact, int line) {
    return fmt::format("{}:{}", std::filesystem::path(artifact).filename().string(), line);
  };
  const auto describe = [&](const OpInventoryEntry& op) {
    std::string kernels;
    for (const auto& k : op.kernels)
      kernels += fmt::format("{}{} {}", kernels.empty() ? "" : ", ", k.dispatch_key,
                             place(k.artifact, k.line));
    return fmt::format(
        "{}{}{}", op.name,
        op.defined_in.empty()
            ? " (not defined in the sources)"
            : " defined at " + place(op.defined_in, op.defined_line) +
                  (op.condition.empty() ? "" : fmt::format(" (under `{}`)", op.condition)),
        kernels.empty() ? "; no kernel registered" : "; kernels: " + kernels);
  };
  if (ops.size() <= k_max_listed_ops) {
    for (const auto& op : ops) out.field(4, 0, "", sanitize(describe(op)));
    return;
  }
  const auto list = [&](const std::string& heading,
                        const std::vector<const OpInventoryEntry*>& which) {
    if (which.empty()) return;
    out.field(2, 0, "",
              fmt::format("{} ({}){}", heading, which.size(),
                          which.size() > k_max_listed_ops ? ", the first 25:" : ":"));
    for (std::size_t i = 0; i < which.size() && i < k_max_listed_ops; ++i)
      out.field(4, 0, "", sanitize(describe(*which[i])));
  };
  list("defined, with no kernel that runs on fake tensors found", no_fake);
  list("implemented, never defined in the sources", undefined);
}

}  // namespace

std::string render_text(const model::Case& c, const std::vector<model::Finding>& findings,
                        bool color, std::size_t width) {
  TextReport out(color, width);
  write_summary(out, c, findings);
  write_models(out, c);
  write_crashes(out, c);
  write_gpu_faults(out, c);
  out.line();
  out.line(out.paint("Findings", "1"));
  if (findings.empty()) out.line("  no findings");
  for (const auto& finding : findings) write_finding(out, finding);
  // What was read comes after what was found: the findings are what a reader came for.
  write_ops(out, c);
  write_artifacts(out, c);
  write_diagnostics(out, c);
  return out.take();
}

}  // namespace aoti::report
