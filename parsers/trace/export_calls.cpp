// Export calls told apart by their call site in the user's code (TraceBuilder::track_export, on
// every committed record), and what the sequence of them implies once the whole trace is read
// (TraceBuilder::finish: an export that specialized a symbol and was exported again most likely
// failed). Split from trace_builder.cpp, which builds the other facts record by record.
#include <string>
#include <vector>

#include "parsers/trace/builder_caps.hpp"
#include "parsers/trace/nlohmann_value.hpp"
#include "parsers/trace/trace_builder.hpp"

namespace aoti::parsers::trace {

// track_export for a header read without its envelope: false when it is done, true when the whole
// header is needed (the call site of a new export, or a frame only the whole header tells).
bool TraceBuilder::track_export_light(Current& record) {
  const std::vector<RecordHeader::StackFrame>& stack = record.header.stack;
  const auto file_of = [&](const RecordHeader::StackFrame& frame) -> std::string_view {
    const auto it = m_strings.find(frame.file_id);
    return it == m_strings.end() ? std::string_view() : std::string_view(it->second);
  };
  for (std::size_t i = 0; i < stack.size(); ++i) {
    if (stack[i].opaque) continue;
    const std::string_view file = file_of(stack[i]);
    if (!is_export_or_compile_file(file)) continue;
    if (file.ends_with("torch/_inductor/__init__.py")) {
      if (m_export_open && !m_facts.exports.empty()) m_facts.exports.back().compiled = true;
      m_export_open = false;
      return false;
    }
    if (i == 0) return false;
    const RecordHeader::StackFrame& site = stack[i - 1];
    if (site.opaque) return true;
    // Most records of an export come from the same call: its site is all that is needed then.
    const bool same = m_export_open && !m_facts.exports.empty() &&
                      m_facts.exports.back().call_site.file == file_of(site) &&
                      m_facts.exports.back().call_site.line == site.line;
    if (same) return false;
    // Past the cap a new call site is only counted: no need for its frame either.
    if (m_facts.exports.size() >= k_max_exports) {
      m_export_open = false;
      drop("exports");
      return false;
    }
    return true;
  }
  return false;
}

// Tells export calls apart by their call site in the user's code, and notes when AOTInductor
// compiles after one: the frame just outside torch/export (or torch/_inductor) in the stack.
void TraceBuilder::track_export(Current& record) {
  RecordHeader& header = record.header;
  if (!header.envelope && !track_export_light(record)) return;
  if (!header.envelope) header.envelope = nlohmann::json::parse(header.text, nullptr, false);
  const NlohmannValue envelope(*header.envelope);
  NlohmannValue stack = member(envelope, "stack");
  if (!stack.is_array()) stack = member(member(envelope, header.kind), "stack");
  if (!stack.is_array()) return;
  std::vector<NlohmannValue> items;
  stack.for_each_item([&](const NlohmannValue& item) { items.push_back(item); });
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string file = file_name(file_ref_of(member(items[i], "filename")));
    if (!is_export_or_compile_file(file)) continue;
    const bool in_compile = file.ends_with("torch/_inductor/__init__.py");
    if (in_compile) {
      if (m_export_open && !m_facts.exports.empty()) m_facts.exports.back().compiled = true;
      m_export_open = false;
      return;
    }
    if (i == 0 || !items[i - 1].is_object()) return;
    model::TraceFrame site = resolve(frame_of(items[i - 1]));
    const bool same = m_export_open && !m_facts.exports.empty() &&
                      m_facts.exports.back().call_site.file == site.file &&
                      m_facts.exports.back().call_site.line == site.line;
    if (same) return;
    if (m_facts.exports.size() >= k_max_exports) {
      m_export_open = false;
      return drop("exports");
    }
    model::TraceExportCall call;
    call.where = record.where;
    call.call_site = std::move(site);
    m_facts.exports.push_back(std::move(call));
    m_export_open = true;
    return;
  }
}

void TraceBuilder::finish() {
  m_facts.ranks.assign(m_ranks.begin(), m_ranks.end());
  // An export that specialized a symbol, was never compiled, and was followed by another export:
  // the first one most likely failed (a `Dim` specialized to a constant is a constraint
  // violation) and the user exported again. The trace itself holds no error record for it.
  for (std::size_t i = 0; i + 1 < m_facts.exports.size(); ++i) {
    const model::TraceExportCall& call = m_facts.exports[i];
    if (call.compiled || call.specialized.empty() || m_facts.failures.size() >= k_max_failures)
      continue;
    const std::string& first = call.specialized.front();
    const std::size_t equals = first.find('=');
    model::TraceFailure failure;
    failure.where = call.where;
    failure.origin = "inferred";
    failure.fail_type = "ConstraintViolation";
    failure.symbol = first.substr(0, equals);
    failure.value = equals == std::string::npos ? "" : first.substr(equals + 1);
    failure.user_file = call.call_site.file;
    failure.user_line = call.call_site.line;
    const model::TraceFrame& next = m_facts.exports[i + 1].call_site;
    failure.reason = "the export at line " + std::to_string(call.call_site.line) + " specialized " +
                     failure.symbol + " to " + failure.value +
                     " and was not compiled; the export at line " + std::to_string(next.line) +
                     " followed (" + next.code.substr(0, 200) + ")";
    m_facts.failures.push_back(std::move(failure));
  }
}

}  // namespace aoti::parsers::trace
