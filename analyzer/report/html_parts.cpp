// The pieces both HTML pages (a case, a scan) are made of: escaping, the page frame with its inline
// style, and one finding's section.
#include "analyzer/report/html_parts.hpp"

#include <fmt/format.h>

#include "analyzer/report/common.hpp"

namespace aoti::report::html {
namespace {

constexpr std::string_view k_style = R"css(
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
main{max-width:1100px;margin:0 auto;padding:24px}
h1{font-size:22px;margin:0 0 4px} h2{font-size:18px;margin:28px 0 8px} h3{font-size:16px;margin:0}
.verdict{font-size:17px;margin:0 0 16px;color:#394150}
table{border-collapse:collapse;width:100%;background:#fff;margin:8px 0}
th,td{border:1px solid #dde1e7;padding:6px 8px;text-align:left;vertical-align:top}
th{background:#eef1f5;font-weight:600}
code,pre{font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:#0f1420;color:#e6e9ef;padding:8px 10px;border-radius:6px;overflow-x:auto;margin:4px 0}
pre.fact{background:#f4f6f9;color:#333;border:1px dashed #c3c9d3}div.fact{font-size:12px;color:#667}
.finding{background:#fff;border:1px solid #dde1e7;border-left:6px solid #888;border-radius:6px;padding:12px 16px;margin:14px 0}
.finding.error{border-left-color:#c62828}.finding.warning{border-left-color:#e69500}.finding.note{border-left-color:#2e7dd7}
.sev{display:inline-block;border-radius:4px;padding:0 6px;font-size:12px;font-weight:700;text-transform:uppercase;color:#fff}
.sev.error{background:#c62828}.sev.warning{background:#e69500}.sev.note{background:#2e7dd7}.sev.clean{background:#2e7d32}.sev.unreadable{background:#6a1b9a}
.meta{color:#5b6474;font-size:13px}
.evidence li{margin:6px 0}.loc{font-size:12px;color:#5b6474;word-break:break-all}
.new{background:#fde68a;border-radius:4px;padding:0 4px;font-size:12px;font-weight:700}
svg{display:block;margin:8px 0;max-width:100%;height:auto}
details{background:#fff;border:1px solid #dde1e7;border-radius:6px;padding:8px 12px;margin:8px 0}
)css";

// `text` split into two lines of at most `width` code points, the second ending in "…" when cut.
std::pair<std::string, std::string> two_lines(const std::string& text, std::size_t width) {
  std::vector<std::size_t> starts;  // byte offset of each code point
  for (std::size_t i = 0; i < text.size(); ++i)
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) starts.push_back(i);
  const auto at = [&](std::size_t n) { return n < starts.size() ? starts[n] : text.size(); };
  if (starts.size() <= width) return {text, ""};
  std::string second = text.substr(at(width), at(2 * width) - at(width));
  if (starts.size() > 2 * width)
    second = text.substr(at(width), at(2 * width - 1) - at(width)) + "…";
  return {text.substr(0, at(width)), second};
}

// Boxes joined by arrows, one per chain step, wrapped onto rows of at most four.
std::string chain_svg(const std::vector<std::string>& chain) {
  constexpr int k_per_row = 4, k_box_w = 230, k_box_h = 54, k_gap = 36, k_row_gap = 30;
  const int rows = static_cast<int>((chain.size() + k_per_row - 1) / k_per_row);
  const int width = k_per_row * k_box_w + (k_per_row - 1) * k_gap + 20;
  const int height = rows * k_box_h + (rows - 1) * k_row_gap + 20;
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" "
      "height=\"{1}\" role=\"img\" "
      "aria-label=\"from cause to failure\"><defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" "
      "refX=\"9\" refY=\"5\" "
      "markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 "
      "L0,10 z\" "
      "fill=\"#5b6474\"/></marker></defs>",
      width, height);
  const auto position = [&](std::size_t i) {
    const int row = static_cast<int>(i) / k_per_row, col = static_cast<int>(i) % k_per_row;
    return std::pair{10 + col * (k_box_w + k_gap), 10 + row * (k_box_h + k_row_gap)};
  };
  for (std::size_t i = 0; i < chain.size(); ++i) {
    const auto [x, y] = position(i);
    const bool last = i + 1 == chain.size();
    out += fmt::format(
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"7\" fill=\"{}\" stroke=\"{}\"/>",
        x, y, k_box_w, k_box_h, last ? "#fdecea" : "#eef4fd", last ? "#c62828" : "#2e7dd7");
    // Two lines of at most 30 characters each; a longer label ends in "…", the full text is in the
    // title.
    std::string label = sanitize(chain[i]);
    std::erase(label, '`');  // code quotes are for prose; a box is already code
    const auto [first, second] = two_lines(label, 30);
    out += fmt::format("<title>{}</title>", escape(label));
    out += fmt::format(
        "<text x=\"{}\" y=\"{}\" font-family=\"monospace\" font-size=\"12\" fill=\"#1d2330\" "
        "text-anchor=\"middle\">{}</text>",
        x + k_box_w / 2, y + (second.empty() ? 31 : 23), escape(first));
    if (!second.empty())
      out += fmt::format(
          "<text x=\"{}\" y=\"{}\" font-family=\"monospace\" font-size=\"12\" fill=\"#1d2330\" "
          "text-anchor=\"middle\">{}</text>",
          x + k_box_w / 2, y + 40, escape(second));
    if (last) break;
    const auto [nx, ny] = position(i + 1);
    if (ny == y)
      out += fmt::format(
          "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#5b6474\" stroke-width=\"2\" "
          "marker-end=\"url(#arrow)\"/>",
          x + k_box_w, y + k_box_h / 2, nx - 2, ny + k_box_h / 2);
    else
      out += fmt::format(
          "<path d=\"M{} {} V{} H{} V{}\" fill=\"none\" stroke=\"#5b6474\" stroke-width=\"2\" "
          "marker-end=\"url(#arrow)\"/>",
          x + k_box_w / 2, y + k_box_h, y + k_box_h + k_row_gap / 2, nx + k_box_w / 2, ny - 2);
  }
  return out + "</svg>";
}

}  // namespace

std::string escape(std::string_view text) {
  std::string out;
  for (char ch : sanitize(text)) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += ch;
    }
  }
  return out;
}

// `code` spans of check messages become <code>, the rest is escaped text.
std::string prose(std::string_view text) {
  std::string out;
  bool in_code = false;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != '`') continue;
    const std::string piece = escape(text.substr(start, i - start));
    out += in_code ? "<code>" + piece + "</code>" : piece;
    in_code = !in_code;
    start = i + 1;
  }
  return out;
}

std::string page(std::string_view title, const std::string& body) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<title>{}</title>\n<style>{}</style>\n</head>\n<body>\n<main>\n{}</main>\n</body>\n</"
      "html>\n",
      escape(title), k_style, body);
}

std::string finding_html(const model::Finding& f, bool is_new) {
  const std::string sev(model::to_string(f.severity));
  std::string out = fmt::format("<section class=\"finding {}\" id=\"finding-{}\">\n", sev, f.rank);
  out += fmt::format("<h3>#{} <span class=\"sev {}\">{}</span> {}{}</h3>\n", f.rank, sev, sev,
                     is_new ? "<span class=\"new\">NEW</span> " : "", prose(f.title));
  out +=
      fmt::format("<p class=\"meta\"><code>{}</code> · confidence {:.2f}{}</p>\n", escape(f.check),
                  f.confidence, f.explains_failure ? " · explains the observed failure" : "");
  out += fmt::format("<p>{}</p>\n", prose(f.message));
  if (!f.why.empty())
    out += fmt::format("<p><strong>Why it matters:</strong> {}</p>\n", prose(f.why));
  if (!f.chain.empty()) out += chain_svg(f.chain) + "\n";
  if (!f.evidence.empty()) {
    out += "<p><strong>Evidence</strong></p>\n<ul class=\"evidence\">\n";
    for (const auto& e : f.evidence) {
      out += fmt::format("<li><div class=\"loc\">{}</div>", escape(e.where.display()));
      if (!e.note.empty()) out += fmt::format("<div>{}</div>", prose(e.note));
      if (!e.excerpt.empty() && e.kind == model::EvidenceKind::quote)
        out += fmt::format("<pre class=\"quote\">{}</pre>", escape(truncate(e.excerpt, 2000)));
      else if (!e.excerpt.empty())
        out += fmt::format("<div class=\"fact\">derived:</div><pre class=\"fact\">{}</pre>",
                           escape(truncate(e.excerpt, 2000)));
      out += "</li>\n";
    }
    out += "</ul>\n";
  }
  if (!f.next_steps.empty()) {
    out += "<p><strong>Next steps</strong></p>\n<ol>\n";
    for (const auto& step : f.next_steps) {
      out += fmt::format("<li>{}", prose(step.what));
      if (!step.command.empty()) out += fmt::format("<pre>{}</pre>", escape(step.command));
      out += "</li>\n";
    }
    out += "</ol>\n";
  }
  return out + "</section>\n";
}

}  // namespace aoti::report::html
