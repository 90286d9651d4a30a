#include "analyzer/report/trace_summary.hpp"

#include <sstream>

namespace aoti::report {
namespace {

constexpr std::size_t k_listed = 20;  // items listed per section; the rest are counted

std::string frame_text(const std::vector<model::TraceFrame>& frames) {
  if (frames.empty()) return "";
  const model::TraceFrame& frame = frames.back();
  std::string text = "  at " + frame.file + ":" + std::to_string(frame.line);
  if (!frame.code.empty()) text += "  " + frame.code.substr(0, 160);
  return text;
}

std::string where_text(const model::TraceRecord& where) {
  std::string text = where.artifact + ":" + std::to_string(where.line);
  if (!where.compile_id.empty()) text += " " + where.compile_id;
  return text;
}

template <class T, class F>
void section(std::ostringstream& out, const char* title, const std::vector<T>& items, F line) {
  out << title << ": " << items.size() << "\n";
  for (std::size_t i = 0; i < items.size() && i < k_listed; ++i)
    out << "  " << line(items[i]) << "\n";
  if (items.size() > k_listed) out << "  ... " << items.size() - k_listed << " more\n";
}

}  // namespace

std::string render_trace_summary(const model::TraceFacts& facts) {
  std::ostringstream out;
  out << "trace: " << facts.artifact << "\n";
  out << "files: " << facts.files.size() << ", lines: " << facts.lines
      << ", records: " << facts.records << ", interned strings: " << facts.strings << "\n";
  if (!facts.ranks.empty()) {
    out << "ranks:";
    for (int rank : facts.ranks) out << " " << rank;
    out << "\n";
  }
  out << "problems: " << facts.bad_lines << " bad lines, " << facts.bad_json << " bad JSON, "
      << facts.payload_mismatches << " payload MD5 mismatches\n";

  out << "records by kind:\n";
  for (const auto& [kind, count] : facts.records_by_kind)
    out << "  " << kind << ": " << count << "\n";
  if (!facts.artifacts_by_name.empty()) {
    out << "artifacts by name:\n";
    for (const auto& [name, count] : facts.artifacts_by_name)
      out << "  " << name << ": " << count << "\n";
  }
  out << "compile ids:\n";
  for (const auto& [id, count] : facts.records_by_compile_id)
    out << "  " << (id.empty() ? "(none)" : id) << ": " << count << " records\n";

  section(out, "failures", facts.failures, [](const model::TraceFailure& f) {
    std::string text =
        f.fail_type + " (" + f.origin + ") " + where_text(f.where) + ": " + f.reason.substr(0, 300);
    if (!f.user_file.empty()) text += "  [" + f.user_file + ":" + std::to_string(f.user_line) + "]";
    return text;
  });
  section(out, "symbols", facts.symbols, [](const model::TraceSymbol& s) {
    return s.name + (s.unbacked ? " (unbacked)" : "") + " = " + (s.value.empty() ? "?" : s.value) +
           " range [" + s.range_lo + ", " + s.range_hi + "]" +
           (s.source.empty() ? "" : " from " + s.source) + "  " + where_text(s.where);
  });
  section(out, "specializations", facts.specializations, [](const model::TraceSpecialization& s) {
    return s.symbol + " -> " + s.value + " (" + s.reason + ") " + where_text(s.where) +
           frame_text(s.user_frames);
  });
  out << "guards seen: " << facts.guards_seen << "\n";
  section(out, "guards", facts.guards, [](const model::TraceExprEvent& g) {
    return g.kind + ": " + g.expr + (g.prefix.empty() ? "" : " [" + g.prefix + "]") + "  " +
           where_text(g.where);
  });
  section(out, "data-dependent", facts.data_dependent, [](const model::TraceExprEvent& g) {
    return g.kind + ": " + g.expr + (g.result.empty() ? "" : " -> " + g.result) + "  " +
           where_text(g.where);
  });
  section(out, "fake kernels", facts.fake_kernels, [](const model::TraceFakeKernelEvent& f) {
    return f.kind + ": " + f.op + (f.reason.empty() ? "" : " (" + f.reason.substr(0, 200) + ")") +
           "  " + where_text(f.where);
  });
  section(out, "exports", facts.exports, [](const model::TraceExportCall& e) {
    std::string text = e.call_site.file + ":" + std::to_string(e.call_site.line) + " " +
                       e.call_site.code.substr(0, 120);
    text += e.compiled ? " [compiled]" : " [not compiled]";
    for (const std::string& s : e.specialized) text += " specialized " + s;
    return text;
  });
  section(out, "graphs", facts.graphs, [](const model::TraceGraph& g) {
    std::string text = g.name + ": " + std::to_string(g.nodes.size()) + " nodes" +
                       (g.truncated ? " (cut)" : "") + "  " + where_text(g.where);
    if (!g.range_constraints.empty())
      text += "  " + std::to_string(g.range_constraints.size()) + " range constraints";
    return text;
  });
  section(out, "code dumps", facts.code_dumps, [](const model::TraceCodeDump& d) {
    return d.name + ": " + std::to_string(d.text.size()) + " bytes" +
           (d.truncated ? " (cut)" : "") + (d.md5_ok ? ", MD5 ok" : ", MD5 not verified") + "  " +
           d.filename;
  });
  if (!facts.dropped.empty()) {
    out << "not kept (caps):\n";
    for (const auto& [list, count] : facts.dropped) out << "  " << list << ": " << count << "\n";
  }
  return out.str();
}

}  // namespace aoti::report
