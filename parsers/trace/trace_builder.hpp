// Turns trace records, one at a time, into TraceFacts. The reader (trace_reader.cpp) feeds it
// records from a TORCH_TRACE log or a tlparse raw.jsonl alike: a parsed header, then the record's
// payload lines, then the end of the record. Every list it fills is capped (builder_caps.hpp). What
// a header says is read in record_header.cpp, export calls are told apart in export_calls.cpp.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/case.hpp"
#include "parsers/limits.hpp"
#include "parsers/trace/graph_text.hpp"
#include "parsers/trace/md5.hpp"
#include "parsers/trace/record_facts.hpp"

namespace aoti::parsers::trace {

// What the builder reads of a record's payload: nothing (the MD5 check aside), an FX graph, a code
// dump, or a failure's text.
enum class PayloadUse { none, code, graph, failure_text };

// What every record's header (its metadata JSON) says, and what its facts read of it. The reader
// fills it from a fast parse, or from a whole parse by nlohmann (`envelope`) for a raw.jsonl line
// and for the headers the fast parse leaves to nlohmann.
struct RecordHeader {
  std::string kind;  // the event: the first key in sorted order that is not context, or "<none>"
  std::optional<std::int64_t> compiled_autograd_id, frame_id, frame_compile_id, attempt, rank;
  std::string has_payload;  // the payload's MD5, empty when there is no payload
  std::string name;         // the metadata's "name" (artifacts, graph dumps)
  std::string type;         // the metadata's "type" (graph dumps)
  // Without an envelope: the stack's frames, in order, as far as export calls are told apart by
  // them (TraceBuilder::track_export) once the string table says which files they are.
  struct StackFrame {
    std::int64_t file_id = -1;
    int line = 0;
    // A frame that is not {"filename": <int>, "line": <int>}: never an export or compile file (the
    // reader checks named files), and the header is parsed whole when it is an export's call site.
    bool opaque = false;
  };
  std::vector<StackFrame> stack;
  std::string_view
      text;           // the header's JSON, to parse whole when a stack frame turns out to matter
  RecordFacts facts;  // what its facts read of the metadata (FactUse)
  // The whole parsed header: a tlparse raw.jsonl's, or one the fast parse left to nlohmann.
  std::optional<nlohmann::json> envelope;
};

// The header of a record parsed whole (a tlparse raw.jsonl line, or a header the fast parse
// leaves to nlohmann).
RecordHeader header_of(nlohmann::json envelope);
// Which payload a record with this header uses.
PayloadUse payload_use(std::string_view kind, std::string_view name, std::string_view type);
// What the facts of a record with this header read of it beyond RecordHeader's fields.
FactUse fact_use(std::string_view kind, std::string_view name, std::string_view type);
// Whether an envelope key is context (where, when, which rank), not the event; tlparse adds the
// last five to raw.jsonl.
bool is_context_key(std::string_view key);
// Whether a stack frame in `file` marks an export call or an AOTInductor compile.
bool is_export_or_compile_file(std::string_view file);

class TraceBuilder {
 public:
  static constexpr std::size_t k_max_code_bytes =
      k_max_wrapper_source;  // one kept code dump: a wrapper
  static constexpr std::size_t k_max_diagnostics_per_file = 64;

  TraceBuilder(::aoti::model::TraceFacts& facts,
               std::vector<::aoti::model::Diagnostic>& diagnostics)
      : m_facts(facts), m_diagnostics(diagnostics) {}

  // A new file: its own string table and problem budget.
  void begin_file(const std::string& display);
  void end_file();
  void define_string(std::int64_t id, std::string_view text);

  // A record header at `line` of the current file. Payload lines, if any, follow through
  // payload_line() or are summed up by payload_checked(); `payload_artifact` names the file they
  // come from.
  void begin_record(int line, RecordHeader&& header, const std::string& payload_artifact,
                    int first_payload_line);
  // Whether the current record's payload is used (the others are only checked when cheap).
  bool wants_payload() const;
  bool expects_payload() const {
    return m_current.has_value() && !m_current->header.has_payload.empty();
  }
  void payload_line(std::string_view text, int line, bool cut);
  // The current record's payload, read and checked against its MD5 by the reader: `lines` lines,
  // some `cut` or not, matching or not.
  void payload_checked(std::uint64_t lines, bool cut, bool matches);
  // A payload line naming the legacy aot_compile's output .so (payload_line() finds them itself).
  void output_path_line(std::string_view text, int line);
  // `payload_seen`: false when the payload was not read (a tlparse payload file skipped or
  // missing), so it is neither checked nor used.
  void end_record(bool payload_seen = true);

  void problem(int line, const std::string& message);  // a diagnostic, within the file's budget
  void count_line() { ++m_facts.lines; }
  void count_lines(std::uint64_t count) { m_facts.lines += count; }
  void bad_line(int line, std::string_view why);
  void bad_json(int line, std::string_view why);

  void finish();  // derived facts (inferred failures), sorted ranks

 private:
  struct Current {
    // Declared here, defaulted in the .cpp: clang does not count a nested class with member
    // initializers default-constructible inside its enclosing class, as std::optional asks.
    Current();
    ::aoti::model::TraceRecord where;
    RecordHeader header;
    Md5 md5;
    std::optional<bool> md5_matches;  // when the reader checked the payload
    std::uint64_t payload_lines = 0;
    bool payload_cut = false;
    PayloadUse use = PayloadUse::none;
    std::string text;  // code or failure text
    std::string payload_artifact;
    int first_payload_line = 0;
    bool truncated = false;
  };

  void commit(Current& record, bool md5_ok);
  void track_export(Current& record);
  bool track_export_light(Current& record);
  std::string file_name(const RecordFacts::FileRef& file) const;  // "" for an unknown id
  ::aoti::model::TraceFrame resolve(const RecordFacts::Frame& frame) const;
  std::vector<::aoti::model::TraceFrame> user_frames(const RecordFacts& facts) const;
  void supersede(const std::string& compile_key, int attempt);
  void bump(std::map<std::string, std::uint64_t>& counts, const std::string& key);
  void drop(const char* list) { ++m_facts.dropped[list]; }

  ::aoti::model::TraceFacts& m_facts;
  std::vector<::aoti::model::Diagnostic>& m_diagnostics;
  std::string m_file;
  std::size_t m_file_problems = 0;
  std::unordered_map<std::int64_t, std::string> m_strings;
  std::size_t m_string_bytes = 0;
  std::optional<Current> m_current;
  std::unique_ptr<::aoti::model::TraceGraph> m_graph;
  std::optional<GraphTextReader> m_graph_reader;
  std::map<std::string, int> m_last_attempt;  // compile id without attempt -> highest attempt
  std::set<int> m_ranks;
  std::size_t m_code_bytes = 0;
  bool m_export_open = false;  // the last phase seen was an export (not a compile)
};

}  // namespace aoti::parsers::trace
