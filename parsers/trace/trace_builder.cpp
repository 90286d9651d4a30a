#include "parsers/trace/trace_builder.hpp"
#include "torch/error_messages.hpp"
#include "torch/subsystem.hpp"

#include <algorithm>
#include <array>

namespace aoti::parsers::trace {
namespace {

using nlohmann::json;

constexpr std::size_t k_max_symbols = 4096;
constexpr std::size_t k_max_specializations = 1024;
constexpr std::size_t k_max_guards = 1024;
constexpr std::size_t k_max_data_dependent = 1024;
constexpr std::size_t k_max_failures = 256;
constexpr std::size_t k_max_fake_kernels = 1024;
constexpr std::size_t k_max_graphs = 64;
constexpr std::size_t k_max_code_dumps = 16;
constexpr std::size_t k_max_total_code_bytes = 128u << 20;
constexpr std::size_t k_max_failure_text = 64u << 10;
constexpr std::size_t k_max_exports = 256;
constexpr std::size_t k_max_per_export = 64;
constexpr std::size_t k_max_keys = 1024;  // distinct kinds / names / compile ids counted
constexpr std::size_t k_max_strings = 1u << 20;
constexpr std::size_t k_max_string_bytes = 64u << 20;
constexpr std::size_t k_max_ranks = 4096;
constexpr std::size_t k_max_user_frames = 8;

// Top-level events whose payload is a readable FX graph.
const std::set<std::string, std::less<>> k_graph_events = {
    "dynamo_output_graph",      "aot_forward_graph",       "aot_backward_graph",
    "aot_inference_graph",      "aot_joint_graph",         "inductor_pre_grad_graph",
    "inductor_post_grad_graph", "compiled_autograd_graph", "optimize_ddp_split_graph",
    "optimize_ddp_split_child", "exported_program"};

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// record_facts.hpp's Value over nlohmann; a default one is null.
class NlohmannValue {
 public:
  NlohmannValue() = default;
  explicit NlohmannValue(const json& value) : m_value(&value) {}
  bool is_null() const { return !m_value || m_value->is_null(); }
  bool is_object() const { return m_value && m_value->is_object(); }
  bool is_array() const { return m_value && m_value->is_array(); }
  bool is_string() const { return m_value && m_value->is_string(); }
  bool is_integer() const { return m_value && m_value->is_number_integer(); }
  std::string_view string() const { return m_value->get_ref<const std::string&>(); }
  std::int64_t integer() const { return m_value->get<std::int64_t>(); }
  std::string dump() const { return m_value->dump(); }
  std::size_t size() const { return m_value->size(); }
  std::optional<NlohmannValue> find(std::string_view key) const {
    const auto it = m_value->find(key);
    if (it == m_value->end()) return std::nullopt;
    return NlohmannValue(*it);
  }
  template <class Fn>
  void for_each_item(Fn&& fn) const {
    for (const json& item : *m_value) fn(NlohmannValue(item));
  }

 private:
  const json* m_value = nullptr;
};

// "[2, int_oo]" -> {"2", "int_oo"}
std::pair<std::string, std::string> range_of(std::string_view text) {
  if (text.size() < 2 || text.front() != '[' || text.back() != ']') return {};
  text = text.substr(1, text.size() - 2);
  const std::size_t comma = text.find(',');
  if (comma == std::string_view::npos) return {};
  std::string_view hi = text.substr(comma + 1);
  while (!hi.empty() && hi.front() == ' ') hi.remove_prefix(1);
  return {std::string(text.substr(0, comma)), std::string(hi)};
}

// "[0/1_1]" -> "[0/1]": the compile without its restart attempt.
std::string compile_key(const std::string& compile_id) {
  const std::size_t underscore = compile_id.rfind('_');
  if (underscore == std::string::npos) return compile_id;
  return compile_id.substr(0, underscore) + "]";
}

template <class T>
void erase_attempts(std::vector<T>& items, const std::string& key, int attempt) {
  std::erase_if(items, [&](const T& item) {
    return item.where.attempt < attempt && !item.where.compile_id.empty() &&
           compile_key(item.where.compile_id) == key;
  });
}

}  // namespace

void TraceBuilder::begin_file(const std::string& display) {
  m_file = display;
  m_file_problems = 0;
  m_strings.clear();
  m_string_bytes = 0;
  m_export_open = false;
  if (m_facts.files.size() < k_max_keys) m_facts.files.push_back(display);
}

void TraceBuilder::end_file() {
  end_record();
  if (m_file_problems > k_max_diagnostics_per_file)
    m_diagnostics.push_back({m_file, std::to_string(m_file_problems - k_max_diagnostics_per_file) +
                                         " more problems in this file not listed"});
}

void TraceBuilder::problem(int line, const std::string& message) {
  if (++m_file_problems > k_max_diagnostics_per_file) return;
  m_diagnostics.push_back({m_file, "line " + std::to_string(line) + ": " + message});
}

void TraceBuilder::bad_line(int line, std::string_view why) {
  ++m_facts.bad_lines;
  problem(line, std::string(why));
}

void TraceBuilder::bad_json(int line, std::string_view why) {
  ++m_facts.bad_json;
  problem(line, "record metadata is not valid JSON (" + std::string(why) + "); record skipped");
}

void TraceBuilder::define_string(std::int64_t id, std::string_view text) {
  ++m_facts.strings;
  if (m_strings.size() >= k_max_strings || m_string_bytes + text.size() > k_max_string_bytes) {
    drop("strings");
    return;
  }
  m_string_bytes += text.size();
  m_strings[id] = std::string(text);
}

void TraceBuilder::bump(std::map<std::string, std::uint64_t>& counts, const std::string& key) {
  auto it = counts.find(key);
  if (it != counts.end()) {
    ++it->second;
  } else if (counts.size() < k_max_keys) {
    counts.emplace(key, 1);
  } else {
    ++counts["<other>"];
  }
}

std::string TraceBuilder::file_name(const RecordFacts::FileRef& file) const {
  if (const auto* name = std::get_if<std::string>(&file)) return *name;
  if (const auto* key = std::get_if<std::int64_t>(&file)) {
    const auto it = m_strings.find(*key);
    if (it != m_strings.end()) return it->second;
  }
  return {};
}

model::TraceFrame TraceBuilder::resolve(const RecordFacts::Frame& frame) const {
  model::TraceFrame out;
  out.file = file_name(frame.file);
  if (const auto* key = std::get_if<std::int64_t>(&frame.file))
    out.file_id = static_cast<int>(std::clamp<std::int64_t>(*key, -1, INT32_MAX));
  out.line = frame.line;
  out.function = frame.function;
  out.code = frame.code;
  return out;
}

// The innermost frames of the user's own code: from `user_stack` when the event has one, else
// from the framework stack with PyTorch's and the runtime's frames left out.
std::vector<model::TraceFrame> TraceBuilder::user_frames(const RecordFacts& facts) const {
  std::vector<model::TraceFrame> user;
  for (auto frame = facts.stack.rbegin();
       frame != facts.stack.rend() && user.size() < k_max_user_frames; ++frame) {
    model::TraceFrame resolved = resolve(*frame);
    if (!torch::is_framework_file(resolved.file)) user.push_back(std::move(resolved));
  }
  std::reverse(user.begin(), user.end());
  return user;
}

void TraceBuilder::supersede(const std::string& key, int attempt) {
  auto [it, inserted] = m_last_attempt.try_emplace(key, attempt);
  if (inserted || attempt <= it->second) return;
  it->second = attempt;
  // A restarted compile logs its symbols and guards again: keep the last attempt only.
  erase_attempts(m_facts.symbols, key, attempt);
  erase_attempts(m_facts.specializations, key, attempt);
  erase_attempts(m_facts.guards, key, attempt);
  erase_attempts(m_facts.data_dependent, key, attempt);
  erase_attempts(m_facts.fake_kernels, key, attempt);
  erase_attempts(m_facts.graphs, key, attempt);
}

RecordHeader header_of(json envelope) {
  RecordHeader header;
  for (const auto& [key, value] : envelope.items())
    if (!is_context_key(key)) {
      header.kind = key.substr(0, 256);
      break;
    }
  if (header.kind.empty()) header.kind = "<none>";
  const NlohmannValue value(envelope);
  header.compiled_autograd_id = int_of(value, "compiled_autograd_id");
  header.frame_id = int_of(value, "frame_id");
  header.frame_compile_id = int_of(value, "frame_compile_id");
  header.attempt = int_of(value, "attempt");
  header.rank = int_of(value, "rank");
  header.has_payload = text_of(value, "has_payload", 64);
  const NlohmannValue metadata = member(value, header.kind);
  header.name = text_of(metadata, "name", 256);
  header.type = text_of(metadata, "type", k_max_field_text);
  header.facts = record_facts(value, header.kind, fact_use(header.kind, header.name, header.type));
  header.envelope = std::move(envelope);
  return header;
}

PayloadUse payload_use(std::string_view kind, std::string_view name, std::string_view type) {
  if (kind == "artifact" || kind == "graph_dump") {
    if (kind == "graph_dump" && (type == "cpp" || name.starts_with("inductor_aot_")))
      return PayloadUse::code;
    if (ends_with(name, "_graph") || name == "make_fx_fail_partial" || kind == "graph_dump")
      return PayloadUse::graph;
    if (name == "dynamo_error") return PayloadUse::failure_text;
    return PayloadUse::none;
  }
  return k_graph_events.count(kind) ? PayloadUse::graph : PayloadUse::none;
}

FactUse fact_use(std::string_view kind, std::string_view name, std::string_view type) {
  static const std::set<std::string, std::less<>> k_stack_kinds = {
      "create_symbol",
      "create_unbacked_symbol",
      "symbolic_shape_specialization",
      "guard_added",
      "guard_added_fast",
      "propagate_real_tensors",
      "guard_on_data_dependent_error",
      "propagate_real_tensors_provenance"};
  static const std::set<std::string, std::less<>> k_metadata_kinds = {
      "missing_fake_kernel", "mismatched_fake_kernel", "compilation_metrics",
      "bwd_compilation_metrics"};
  if (k_stack_kinds.count(kind)) return FactUse::metadata_and_stack;
  if (k_metadata_kinds.count(kind) || payload_use(kind, name, type) == PayloadUse::code)
    return FactUse::metadata;
  return FactUse::none;
}

bool is_context_key(std::string_view key) {
  static constexpr std::array<std::string_view, 12> k_context_keys = {
      "rank",     "compiled_autograd_id",
      "frame_id", "frame_compile_id",
      "attempt",  "has_payload",
      "stack",    "timestamp",
      "thread",   "pathname",
      "lineno",   "payload_filename"};
  return std::find(k_context_keys.begin(), k_context_keys.end(), key) != k_context_keys.end();
}

bool is_export_or_compile_file(std::string_view file) {
  return ends_with(file, "torch/export/__init__.py") ||
         ends_with(file, "torch/export/_draft_export.py") ||
         ends_with(file, "torch/_inductor/__init__.py");
}

TraceBuilder::Current::Current() = default;

void TraceBuilder::begin_record(int line, RecordHeader&& header,
                                const std::string& payload_artifact, int first_payload_line) {
  end_record();
  // Built in place: a record is large, and a trace has a million of them.
  Current& record = m_current.emplace();
  ++m_facts.records;
  bump(m_facts.records_by_kind, header.kind);

  record.where.artifact = m_file;
  record.where.line = line;
  const auto& autograd = header.compiled_autograd_id;
  const auto& frame = header.frame_id;
  const auto& frame_compile = header.frame_compile_id;
  if (autograd || frame || frame_compile) {
    std::string id = "[";
    if (autograd) id += "!" + std::to_string(*autograd) + "/";
    id += (frame ? std::to_string(*frame) : "-") + "/" +
          (frame_compile ? std::to_string(*frame_compile) : "-");
    record.where.attempt =
        static_cast<int>(std::clamp<std::int64_t>(header.attempt.value_or(0), 0, INT32_MAX));
    if (record.where.attempt) id += "_" + std::to_string(record.where.attempt);
    record.where.compile_id = id + "]";
  }
  bump(m_facts.records_by_compile_id, record.where.compile_id);
  if (header.rank && m_ranks.size() < k_max_ranks)
    m_ranks.insert(static_cast<int>(std::clamp<std::int64_t>(*header.rank, INT32_MIN, INT32_MAX)));
  record.payload_artifact = payload_artifact;
  record.first_payload_line = first_payload_line;

  if (header.kind == "artifact" || header.kind == "graph_dump")
    if (!header.name.empty()) bump(m_facts.artifacts_by_name, header.name);
  record.use = payload_use(header.kind, header.name, header.type);
  if (record.use == PayloadUse::graph) {
    if (m_facts.graphs.size() < k_max_graphs) {
      m_graph = std::make_unique<model::TraceGraph>();
      m_graph_reader.emplace(*m_graph);
    } else {
      drop("graphs");
      record.use = PayloadUse::none;
    }
  }
  if (record.use == PayloadUse::code &&
      (m_facts.code_dumps.size() >= k_max_code_dumps || m_code_bytes >= k_max_total_code_bytes)) {
    drop("code_dumps");
    record.use = PayloadUse::none;
  }
  record.header = std::move(header);
}

bool TraceBuilder::wants_payload() const { return m_current && m_current->use != PayloadUse::none; }

void TraceBuilder::payload_line(std::string_view text, int line, bool cut) {
  Current& record = *m_current;
  if (record.payload_lines++) record.md5.update("\n");
  record.md5.update(text);
  record.payload_cut |= cut;
  output_path_line(text, line);
  switch (record.use) {
    case PayloadUse::none:
      break;
    case PayloadUse::graph:
      m_graph_reader->line(text, line);
      break;
    case PayloadUse::code:
    case PayloadUse::failure_text: {
      const std::size_t cap =
          record.use == PayloadUse::code ? k_max_code_bytes : k_max_failure_text;
      if (record.text.size() + text.size() + 1 > cap) {
        record.truncated = true;
        break;
      }
      if (record.payload_lines > 1) record.text += '\n';
      record.text.append(text);
      break;
    }
  }
}

// The inductor config a compile ran with (fx_graph_runnable and friends) names the legacy
// aot_compile's output .so: what ties a bare model .so to this trace.
void TraceBuilder::output_path_line(std::string_view text, int line) {
  constexpr std::string_view k_output_path = "torch._inductor.config.aot_inductor.output_path = '";
  if (!text.starts_with(k_output_path) || text.size() <= k_output_path.size() + 1 ||
      text.back() != '\'')
    return;
  m_facts.aoti_output_path =
      std::string(text.substr(k_output_path.size(), text.size() - k_output_path.size() - 1));
  m_facts.aoti_output_path_where = model::TraceRecord{
      m_current->payload_artifact, line, m_current->where.compile_id, m_current->where.attempt};
}

void TraceBuilder::payload_checked(std::uint64_t lines, bool cut, bool matches) {
  m_current->payload_lines = lines;
  m_current->payload_cut = cut;
  m_current->md5_matches = matches;
}

void TraceBuilder::end_record(bool payload_seen) {
  if (!m_current) return;
  // Committed where it is, then closed (also when a commit throws: it is not committed again).
  struct Close {
    std::optional<Current>& current;
    ~Close() { current.reset(); }
  } close{m_current};
  Current& record = *m_current;
  bool md5_ok = false;
  if (!record.header.has_payload.empty() && payload_seen) {
    md5_ok = record.md5_matches ? *record.md5_matches
                                : record.md5.hex_digest() == record.header.has_payload;
    if (!md5_ok) {
      ++m_facts.payload_mismatches;
      problem(record.where.line, record.header.kind + " payload (" +
                                     std::to_string(record.payload_lines) + " lines" +
                                     (record.payload_cut ? ", some cut" : "") +
                                     ") does not match its has_payload MD5: truncated or edited");
    }
  }
  // A record whose payload could not be read yields no graph and no code dump.
  if (!payload_seen && record.use != PayloadUse::none) {
    drop(record.use == PayloadUse::graph  ? "graphs"
         : record.use == PayloadUse::code ? "code_dumps"
                                          : "failures");
    record.use = PayloadUse::none;
    m_graph.reset();
  }
  commit(record, md5_ok);
  m_graph_reader.reset();
  m_graph.reset();
}

void TraceBuilder::commit(Current& record, bool md5_ok) {
  if (!record.where.compile_id.empty())
    supersede(compile_key(record.where.compile_id), record.where.attempt);
  track_export(record);
  const std::string& kind = record.header.kind;
  const RecordFacts& facts = record.header.facts;

  if (kind == "create_symbol" || kind == "create_unbacked_symbol") {
    if (m_facts.symbols.size() >= k_max_symbols) return drop("symbols");
    model::TraceSymbol symbol;
    symbol.where = record.where;
    symbol.name = facts.text("symbol", 256);
    symbol.source = facts.text("source", k_max_field_text);
    symbol.value = facts.text("val", k_max_field_text);
    std::tie(symbol.range_lo, symbol.range_hi) = range_of(facts.text("vr", k_max_field_text));
    symbol.unbacked = kind == "create_unbacked_symbol";
    symbol.user_frames = user_frames(facts);
    if (m_export_open && !m_facts.exports.empty() &&
        m_facts.exports.back().symbols.size() < k_max_per_export)
      m_facts.exports.back().symbols.push_back(symbol.name);
    m_facts.symbols.push_back(std::move(symbol));
  } else if (kind == "symbolic_shape_specialization") {
    if (m_facts.specializations.size() >= k_max_specializations) return drop("specializations");
    model::TraceSpecialization spec;
    spec.where = record.where;
    spec.symbol = facts.text("symbol", 256);
    spec.value = facts.text("value", 256);
    spec.reason = facts.text("reason", k_max_field_text);
    spec.sources = facts.sources;
    spec.user_frames = user_frames(facts);
    if (m_export_open && !m_facts.exports.empty() &&
        m_facts.exports.back().specialized.size() < k_max_per_export)
      m_facts.exports.back().specialized.push_back(spec.symbol + "=" + spec.value);
    m_facts.specializations.push_back(std::move(spec));
  } else if (kind == "guard_added" || kind == "guard_added_fast" ||
             kind == "propagate_real_tensors" || kind == "guard_on_data_dependent_error" ||
             kind == "propagate_real_tensors_provenance") {
    const bool guard =
        kind == "guard_added" || kind == "guard_added_fast" || kind == "propagate_real_tensors";
    auto& list = guard ? m_facts.guards : m_facts.data_dependent;
    if (guard) ++m_facts.guards_seen;
    if (list.size() >= (guard ? k_max_guards : k_max_data_dependent))
      return drop(guard ? "guards" : "data_dependent");
    model::TraceExprEvent event;
    event.where = record.where;
    event.kind = kind;
    event.expr = facts.text("expr", k_max_field_text);
    event.prefix = facts.text("prefix", 256);
    event.result = facts.text("result", 256);
    event.user_frames = user_frames(facts);
    list.push_back(std::move(event));
  } else if (kind == "missing_fake_kernel" || kind == "mismatched_fake_kernel") {
    if (m_facts.fake_kernels.size() >= k_max_fake_kernels) return drop("fake_kernels");
    m_facts.fake_kernels.push_back(
        {record.where, kind, facts.text("op", 1024), facts.text("reason", k_max_reason_text)});
  } else if (kind == "compilation_metrics" || kind == "bwd_compilation_metrics") {
    const std::string fail_type = facts.text("fail_type", 1024);
    if (fail_type.empty()) return;
    if (m_facts.failures.size() >= k_max_failures) return drop("failures");
    model::TraceFailure failure;
    failure.where = record.where;
    failure.origin = kind;
    failure.fail_type = fail_type;
    failure.reason = facts.text("fail_reason", k_max_reason_text);
    failure.user_file = facts.text("fail_user_frame_filename", k_max_field_text);
    failure.user_line = static_cast<int>(facts.fail_user_frame_lineno.value_or(0));
    failure.problem = std::string(torch::problem_in_message(failure.reason));
    if (failure.problem.empty() &&
        fail_type.find("GuardOnDataDependentSymNode") != std::string::npos)
      failure.problem = "data-dependent guard";
    m_facts.failures.push_back(std::move(failure));
  }

  const std::string& name = record.header.name;
  if (kind == "artifact" && (name == "dynamo_error" || name == "make_fx_fail_partial")) {
    if (m_facts.failures.size() >= k_max_failures) return drop("failures");
    model::TraceFailure failure;
    failure.where = record.where;
    failure.origin = "artifact:" + name;
    failure.fail_type = name == "dynamo_error" ? "dynamo_error" : "make_fx failed";
    failure.reason =
        name == "dynamo_error" ? record.text : "make_fx failed; the partial graph was logged";
    failure.problem = std::string(torch::problem_in_message(failure.reason));
    // make_fx logs the graph it had when it failed; its last call is the op it was tracing. A
    // custom op there (a namespace that is not torch's own) most likely has no fake kernel:
    // inferred, the record itself gives no reason.
    if (name == "make_fx_fail_partial" && failure.problem.empty() && m_graph) {
      const model::TraceGraphNode* last = nullptr;
      for (const auto& node : m_graph->nodes)
        if (node.op == "call") last = &node;
      if (last && torch::is_custom_op_target(last->target)) {
        failure.problem = "missing fake";
        failure.problem_inferred = true;
        failure.symbol = last->target;
        failure.value = last->source;
      }
    }
    if (name == "make_fx_fail_partial" && failure.problem.empty())
      // Tracing failed right after it made a data-dependent value: the likeliest cause is a guard
      // on it (the record itself gives no reason, so this is marked as inferred).
      for (auto symbol = m_facts.symbols.rbegin(); symbol != m_facts.symbols.rend(); ++symbol)
        if (symbol->unbacked && symbol->where.compile_id == record.where.compile_id) {
          failure.problem = "data-dependent guard";
          failure.problem_inferred = true;
          failure.symbol = symbol->name;
          break;
        }
    m_facts.failures.push_back(std::move(failure));
  }
  if (m_graph) {
    m_graph->where = record.where;
    m_graph->name = kind == "artifact" || kind == "graph_dump" ? name : kind;
    m_graph->payload_artifact = record.payload_artifact;
    m_facts.graphs.push_back(std::move(*m_graph));
  }
  if (record.use == PayloadUse::code) {
    model::TraceCodeDump dump;
    dump.where = record.where;
    dump.name = name;
    dump.filename = facts.text("filename", k_max_field_text);
    dump.payload_artifact = record.payload_artifact;
    dump.first_line = record.first_payload_line;
    dump.truncated = record.truncated;
    dump.md5_ok = md5_ok;
    m_code_bytes += record.text.size();
    dump.text = std::move(record.text);
    m_facts.code_dumps.push_back(std::move(dump));
  }
}

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
    if (ends_with(file, "torch/_inductor/__init__.py")) {
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
  if (!header.envelope) header.envelope = json::parse(header.text, nullptr, false);
  const NlohmannValue envelope(*header.envelope);
  NlohmannValue stack = member(envelope, "stack");
  if (!stack.is_array()) stack = member(member(envelope, header.kind), "stack");
  if (!stack.is_array()) return;
  std::vector<NlohmannValue> items;
  stack.for_each_item([&](const NlohmannValue& item) { items.push_back(item); });
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string file = file_name(file_ref_of(member(items[i], "filename")));
    if (!is_export_or_compile_file(file)) continue;
    const bool in_compile = ends_with(file, "torch/_inductor/__init__.py");
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
