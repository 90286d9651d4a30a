// TORCH_TRACE structured logs (`dedicated_log_torch_trace_*.log`), folders of them (one per rank
// or process), and tlparse output folders (`raw.jsonl` plus payload files), read one record at a
// time in bounded memory.
//
// A log is read in pieces of a few MiB, scanned on every core and merged in file order
// (log_scan.hpp); record headers and the facts they hold are read with simdjson, with nlohmann only
// where simdjson would read a value differently (header_parse.hpp, record_facts.hpp).
//
// Limits: a line is read up to 16 MiB (longer ones are cut and reported); a code dump
// (`inductor_aot_*_code`) is kept up to 64 MiB, other payloads are never stored; every list of
// facts is capped (what did not fit is counted in TraceFacts::dropped). Payloads are checked
// against their `has_payload` MD5 as they are scanned (one pass): all of them in a log of
// up to 64 MiB or with TraceOptions::verify_payloads, else those a fact reads; a mismatch is a
// diagnostic and the record is kept, as tlparse does. Malformed lines and records are diagnostics
// with their file and line, never fatal. Resident memory stays within a few pieces per thread.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "model/case.hpp"
#include "parsers/parse_error.hpp"

namespace aoti::parsers::trace {

// `head`: the first bytes of a file. True for a TORCH_TRACE header line or a tlparse raw.jsonl
// line.
bool looks_like_trace(std::string_view head);
// A tlparse output folder: it holds raw.jsonl.
bool is_tlparse_folder(const std::filesystem::path& dir);

struct TraceRead {
  ::aoti::model::TraceFacts facts;
  std::vector<::aoti::model::Diagnostic> diagnostics;
};

struct TraceOptions {
  // Check every payload against its MD5 (--verify). Without it, a log over 64 MiB has only the
  // payloads a fact reads checked, and the others counted in a diagnostic.
  bool verify_payloads = false;
};

// A trace file, a raw.jsonl, a tlparse output folder, or a folder of trace files. Fails only when
// nothing can be read (missing, empty, no record at all).
Parsed<TraceRead> read_trace(const std::filesystem::path& path_or_folder,
                             const std::string& display, const TraceOptions& options = {});

}  // namespace aoti::parsers::trace
