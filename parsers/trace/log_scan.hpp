// TORCH_TRACE logs: headers, each followed by its tab-indented payload lines. A log is split into
// pieces of a few MiB at record boundaries, each read into a buffer and scanned on its own thread
// (headers parsed by header_parse.hpp), and the pieces are handed to the TraceBuilder in file
// order: the facts are those of one scan from the first line to the last.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "model/case.hpp"
#include "parsers/trace/trace_builder.hpp"

namespace aoti::parsers::trace {

// Longer lines are cut (and reported): a record's metadata or payload line is never near this long.
inline constexpr std::size_t k_max_line = 16u << 20;

// Line numbers past INT32_MAX are reported as INT32_MAX.
inline int line_number(std::uint64_t number) {
  return static_cast<int>(std::min<std::uint64_t>(number, INT32_MAX));
}

// One log into `builder` (begin_file to end_file), or a diagnostic when it cannot be opened.
// `verify_payloads`: check every payload's MD5 (TraceOptions::verify_payloads).
void read_log(const std::filesystem::path& path, const std::string& display, bool verify_payloads,
              TraceBuilder& builder, std::vector<model::Diagnostic>& diagnostics);

}  // namespace aoti::parsers::trace
