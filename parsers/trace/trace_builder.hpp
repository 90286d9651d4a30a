// Turns trace records, one at a time, into TraceFacts. The reader (trace_reader.cpp) feeds it
// records from a TORCH_TRACE log or a tlparse raw.jsonl alike: a parsed envelope, then the
// record's payload lines, then the end of the record. Every list it fills is capped.
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

namespace aoti::parsers::trace {

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

  // A record header at `line` of the current file; `envelope` is its metadata object. Payload
  // lines, if any, follow through payload_line(); `payload_artifact` names the file they come from.
  void begin_record(int line, nlohmann::json envelope, const std::string& payload_artifact,
                    int first_payload_line);
  // Whether the current record's payload is used (the others are only checked when cheap).
  bool wants_payload() const;
  bool expects_payload() const { return m_current.has_value() && !m_current->expected_md5.empty(); }
  void payload_line(std::string_view text, int line, bool cut);
  // `payload_seen`: false when the payload was not read (a tlparse payload file skipped or
  // missing), so it is neither checked nor used.
  void end_record(bool payload_seen = true);

  void problem(int line, const std::string& message);  // a diagnostic, within the file's budget
  void count_line() { ++m_facts.lines; }
  void bad_line(int line, std::string_view why);
  void bad_json(int line, std::string_view why);

  void finish();  // derived facts (inferred failures), sorted ranks

 private:
  enum class PayloadUse { none, code, graph, failure_text };
  struct Current {
    ::aoti::model::TraceRecord where;
    std::string kind;
    nlohmann::json envelope;
    std::string expected_md5;
    Md5 md5;
    std::uint64_t payload_lines = 0;
    bool payload_cut = false;
    PayloadUse use = PayloadUse::none;
    std::string text;  // code or failure text
    std::string payload_artifact;
    int first_payload_line = 0;
    bool truncated = false;
  };

  void commit(Current& record, bool md5_ok);
  void track_export(const Current& record);
  std::vector<::aoti::model::TraceFrame> frames(const nlohmann::json& stack,
                                                std::size_t keep_last) const;
  std::vector<::aoti::model::TraceFrame> user_frames(const nlohmann::json& metadata,
                                                     const nlohmann::json& envelope) const;
  std::string resolve(const nlohmann::json& file_ref, int& id) const;
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
