// What a record's header says and what the builder reads of the record because of it: the header
// of a record parsed whole (header_of), which payload it uses, which facts it reads, which envelope
// keys are context, which frames mark an export or a compile (declared in trace_builder.hpp).
// Split from trace_builder.cpp, which builds the facts record by record.
#include <algorithm>
#include <array>
#include <set>
#include <string>

#include "parsers/trace/nlohmann_value.hpp"
#include "parsers/trace/trace_builder.hpp"

namespace aoti::parsers::trace {
namespace {

using nlohmann::json;

// Top-level events whose payload is a readable FX graph.
const std::set<std::string, std::less<>> k_graph_events = {
    "dynamo_output_graph",      "aot_forward_graph",       "aot_backward_graph",
    "aot_inference_graph",      "aot_joint_graph",         "inductor_pre_grad_graph",
    "inductor_post_grad_graph", "compiled_autograd_graph", "optimize_ddp_split_graph",
    "optimize_ddp_split_child", "exported_program"};

}  // namespace

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
    if (name.ends_with("_graph") || name == "make_fx_fail_partial" || kind == "graph_dump")
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
  return file.ends_with("torch/export/__init__.py") ||
         file.ends_with("torch/export/_draft_export.py") ||
         file.ends_with("torch/_inductor/__init__.py");
}

}  // namespace aoti::parsers::trace
