// A finding: what a check concluded, with the evidence behind it and what to run next.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "model/location.hpp"
#include "model/severity.hpp"

namespace aoti::model {

// The most a report says in one field of a finding or a model summary. Checks put the inputs' own
// names into their words (an input, a kernel, a path), and a crafted wrapper can name an input with
// 30 MiB that every format would repeat in each field: past this a field is cut, and says so.
inline constexpr std::size_t k_max_report_field = 4096;

// Two kinds of evidence, kept apart in every format. A quote is an artifact's own text at
// where.line (through line_end for a range), byte for byte except that surrounding whitespace is
// trimmed and a cut is marked with "…"; writers show it with a line gutter. A fact is a statement
// the analyzer derived from the artifacts (a frame list, a symbol count, a contract in words):
// `where` says what it was derived from, and writers never show it as the artifact's text.
enum class EvidenceKind { fact, quote };
std::string_view to_string(EvidenceKind kind);

struct Evidence {
  Location where;
  std::string excerpt;  // quote: the exact text (lines joined by '\n'); fact: the derived statement
  std::string note;     // what this piece of evidence shows
  EvidenceKind kind = EvidenceKind::fact;  // facts unless built as quotes from the artifact's text
  int line_end = 0;                        // a quote of several lines: the last one (0: one line)
};

// One thing to do next: what it is for, and the exact command where there is one to copy.
struct NextStep {
  std::string what;     // "read the kernel", "cast before the call"
  std::string command;  // a shell command or code line, filled in for this case; may be empty
  std::string language = "sh";  // what `command` is written in: "sh", "python" or "cpp"
};

struct Finding {
  std::string check;  // check id, e.g. "triton.index-out-of-bounds"
  Severity severity = Severity::warning;
  double confidence = 0.5;  // 0..1
  std::string title;        // one line: what went wrong
  std::string message;      // what was seen, in a few sentences
  std::string why;          // why it matters
  std::vector<Evidence> evidence;
  std::vector<NextStep> next_steps;
  // The path from the cause to the failure, one short label a step ("input arg3_1", "in_ptr0 of
  // triton_poi_fused_embedding_0", "assert tmp4 < 1000"), where a check can trace one: drawn as a
  // diagram in HTML, listed in JSON.
  std::vector<std::string> chain;
  // True when the finding explains a failure the artifacts show (an error line, a crash);
  // such findings rank above latent risks.
  bool explains_failure = false;
  // Set by the analysis: the finding quotes the error that ended the run (a log's last exception, a
  // crash after it); it ranks first among the findings that explain a failure.
  bool ends_run = false;
  // What the finding is about, stable across rebuilds ("kernel triton_poi_fused_embedding_0",
  // "constant scale"): feeds the fingerprint and breaks ranking ties.
  std::string subject;

  int rank = 0;             // set by ranking, 1 = the answer
  std::string fingerprint;  // set by ranking, from check + subject
};

}  // namespace aoti::model
