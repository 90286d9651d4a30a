// What a TORCH_TRACE log (or a tlparse output folder) tells about export and compile.
//
// Every list is bounded by the reader (see parsers/trace/trace_reader.hpp): what did not fit is
// counted in `dropped`, so a gigabyte trace costs the same memory as a small one.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace aoti::model {

// One Python frame of a record's stack. The trace interns file names (`str` records); the reader
// resolves them, and keeps the id as written.
struct TraceFrame {
  std::string file;  // "/home/me/models/aoti_gen.py" ("" when the id was never defined)
  int file_id = -1;  // interned id, -1 when the frame named its file directly
  int line = 0;
  std::string function;  // "forward"
  std::string code;      // the source line (`loc`): "return torch.ops.x.f(x)"
};

// Where a fact was logged: the record's header line, and the compile it belongs to.
struct TraceRecord {
  std::string artifact;    // the trace file (or tlparse raw.jsonl) as displayed
  int line = 0;            // line of the record's header in that file
  std::string compile_id;  // tlparse style "[0/0]", "[0/1_1]", "[!0/2/0]"; "" outside any compile
  int attempt = 0;         // restart attempt within that compile (only the last one is kept)
};

// `create_symbol` (backed) and `create_unbacked_symbol`.
struct TraceSymbol {
  TraceRecord where;
  std::string name;      // "s77", "u0"
  std::string source;    // "L['x'].size()[0]" (backed only)
  std::string value;     // the hint, "8" (backed only)
  std::string range_lo;  // "2", "-int_oo"
  std::string range_hi;  // "512", "int_oo"
  bool unbacked = false;
  std::vector<TraceFrame> user_frames;  // innermost last
};

// `symbolic_shape_specialization`: a symbol replaced by a constant.
struct TraceSpecialization {
  TraceRecord where;
  std::string symbol;                // "s77"
  std::vector<std::string> sources;  // "L['x'].size()[0]"
  std::string value;                 // "8"
  std::string reason;                // "range_refined_to_singleton"
  std::vector<TraceFrame> user_frames;
};

// A guard or an expression evaluated on symbols: `guard_added`, `guard_added_fast`,
// `propagate_real_tensors` (guards), and `guard_on_data_dependent_error`,
// `propagate_real_tensors_provenance` (data-dependent events).
struct TraceExprEvent {
  TraceRecord where;
  std::string kind;    // the event name
  std::string expr;    // "Eq(s77, 8)", "u0 > 2"
  std::string prefix;  // guard_added: "eval", "runtime_assert", ...
  std::string result;  // propagate_real_tensors*: "True" / "False"
  std::vector<TraceFrame> user_frames;
};

// A failed compile or export.
struct TraceFailure {
  TraceRecord where;
  std::string origin;     // "compilation_metrics", "artifact:dynamo_error",
                          // "artifact:make_fx_fail_partial", "inferred"
  std::string fail_type;  // "BackendCompilerFailed", "TorchRuntimeError", "ConstraintViolation"
  std::string reason;     // fail_reason (bounded)
  std::string user_file;  // fail_user_frame_filename, or the export call's file when inferred
  int user_line = 0;
  std::string symbol;  // inferred: the specialized symbol and its value
  std::string value;
  // What the whole reason states (torch::problem_in_message over every line of it): "data-dependent
  // guard", "constraint violation", "missing fake", "" for none. For make_fx_fail_partial, which
  // has no reason, inferred (problem_inferred): "missing fake" when the last call of the partial
  // graph it logged is a custom op (`symbol` is its target, `value` the graph's `# File:` comment
  // above it), else "data-dependent guard" when the same compile created an unbacked symbol before
  // it failed (`symbol` names the last such symbol).
  std::string problem;
  bool problem_inferred = false;
};

// `missing_fake_kernel` / `mismatched_fake_kernel` (draft export, TORCH_DTRACE).
struct TraceFakeKernelEvent {
  TraceRecord where;
  std::string kind;    // the event name
  std::string op;      // "tt.nofake.default"
  std::string reason;  // mismatched only
};

// One node of a readable FX graph dump (`print_readable`, `str(ExportedProgram)`).
struct TraceGraphNode {
  std::string name;    // "pad_rows"
  std::string op;      // "placeholder" | "call" | "get_attr" | "expr"
  std::string target;  // "torch.ops.heldout.pad_rows.default" ("" for placeholders)
  std::string type;    // the annotation as printed: "f32[9, 16][16, 1]cuda:0", "Sym(u1)"
  std::string shape;   // dtype and sizes only: "f32[9, 16]"
  std::vector<std::string> inputs;  // names of earlier nodes among the arguments, in order
  // Integer literals among the arguments, in order: the 64 of `scatter_rows.default(linear, slots,
  // 64)`, a constant the caller passed.
  std::vector<std::int64_t> int_literals;
  std::string source;  // the preceding "# File: ..." comment: "/m/gen.py:109 in forward, code: ..."
  int line = 0;        // line in `TraceGraph::payload_artifact`
};

struct TraceRangeConstraint {
  std::string symbol;  // "s77"
  std::string lo;      // "2"
  std::string hi;      // "512", "int_oo"
};

struct TraceGraph {
  TraceRecord where;
  std::string name;  // event or artifact name: "aot_inference_graph", "before_pre_grad_graph",
                     // "exported_program"
  std::string
      payload_artifact;  // the file holding the graph text (the trace, or a tlparse payload file)
  std::vector<TraceGraphNode> nodes;
  std::vector<std::string> outputs;  // names in `return (...)`
  std::vector<TraceRangeConstraint>
      range_constraints;   // exported_program: "Range constraints: {...}"
  bool truncated = false;  // node cap reached
};

// Generated source logged by AOTInductor: `graph_dump` named `inductor_aot_wrapper_code`,
// `inductor_aot_kernel_code` or `inductor_aot_header_code`.
struct TraceCodeDump {
  TraceRecord where;
  std::string name;              // "inductor_aot_wrapper_code"
  std::string filename;          // where inductor wrote it: ".../<hash>.wrapper.cpp"
  std::string payload_artifact;  // the file holding the text
  int first_line = 0;            // line of the text's first line in payload_artifact
  std::string text;              // the source, as compiled
  bool truncated = false;        // longer than the payload cap: `text` is a prefix
  bool md5_ok = false;           // text matches the record's has_payload digest
};

// One `torch.export` call, told apart by its call site in the user's code (frames of the records
// it logged), with what happened during it.
struct TraceExportCall {
  TraceRecord where;                     // its first record
  TraceFrame call_site;                  // "ep = torch.export.export(m, (x,), dynamic_shapes=...)"
  std::vector<std::string> symbols;      // symbols created during it
  std::vector<std::string> specialized;  // "s77=8"
  bool compiled = false;                 // an AOTInductor compile followed before the next export
};

struct TraceFacts {
  std::string artifact;            // the trace file or folder as given
  std::vector<std::string> files;  // the files read (several for a folder of per-rank logs)
  std::vector<int> ranks;          // distinct `rank` values seen, sorted

  std::uint64_t lines = 0;
  std::uint64_t records = 0;                             // records read, `str` included
  std::map<std::string, std::uint64_t> records_by_kind;  // "dynamo_start" -> 3
  std::map<std::string, std::uint64_t>
      artifacts_by_name;  // `artifact` / `graph_dump` names -> count
  std::map<std::string, std::uint64_t> records_by_compile_id;  // "" for records outside a compile
  std::uint64_t strings = 0;                                   // `str` records (interned strings)
  std::uint64_t bad_lines = 0;           // neither a record header nor one of its payload lines
  std::uint64_t bad_json = 0;            // header whose metadata is not a JSON object
  std::uint64_t payload_mismatches = 0;  // payloads whose MD5 differs from has_payload
  std::uint64_t guards_seen = 0;         // guard events, including those past the cap

  std::vector<TraceSymbol> symbols;
  std::vector<TraceSpecialization> specializations;
  std::vector<TraceExprEvent> guards;  // guard_added, guard_added_fast, propagate_real_tensors
  std::vector<TraceExprEvent> data_dependent;  // guard_on_data_dependent_error, *_provenance
  std::vector<TraceFailure> failures;
  std::vector<TraceFakeKernelEvent> fake_kernels;
  std::vector<TraceGraph> graphs;
  std::vector<TraceCodeDump> code_dumps;
  std::vector<TraceExportCall> exports;

  // `torch._inductor.config.aot_inductor.output_path = '/x/model.so'` in a logged config: where the
  // legacy torch._export.aot_compile wrote the model .so ("" when not logged).
  std::string aoti_output_path;
  TraceRecord aoti_output_path_where;

  std::map<std::string, std::uint64_t> dropped;  // list name -> entries not kept (caps)

  // Set by correlation: index into Case::models of the model whose wrapper this trace produced
  // (matched by the wrapper's file name, or made from the trace's own wrapper dump); none if none.
  std::optional<std::size_t> model;

  // The first AOTI wrapper source dump, or nullptr.
  const TraceCodeDump* wrapper_code() const {
    for (const TraceCodeDump& dump : code_dumps)
      if (dump.name == "inductor_aot_wrapper_code") return &dump;
    return nullptr;
  }
};

}  // namespace aoti::model
