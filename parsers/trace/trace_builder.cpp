#include "parsers/trace/trace_builder.hpp"
#include "parsers/trace/builder_caps.hpp"
#include "torch/error_messages.hpp"
#include "torch/subsystem.hpp"

#include <algorithm>

namespace aoti::parsers::trace {
namespace {

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
}  // namespace aoti::parsers::trace
