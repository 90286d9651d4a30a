// Error logs (stderr, stdout, service logs): every AOTI / CUDA / export error pattern, streamed
// line by line with a cap on line length, so a 1 GiB log with no newline costs bounded memory.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/case.hpp"
#include "parsers/logs/output_code.hpp"
#include "parsers/parse_error.hpp"

namespace aoti::parsers::logs {

struct LogScan {
  std::vector<::aoti::model::LogEvent> events;
  std::vector<::aoti::model::Diagnostic>
      diagnostics;  // e.g. "line 3 is 1073741824 bytes; read the first 65536"
  std::uint64_t lines = 0;
  // The debugging flags' own output (the printer's launches and values, the driver's GPU core
  // notice), read in the same pass; nullopt when the log holds none.
  std::optional<::aoti::model::DebugRunFacts> debug_run;
  std::optional<OutputCode> output_code;  // the generated wrapper it logged, if any
};

// Fails only when the file cannot be opened or read.
Parsed<LogScan> scan_log_file(const std::filesystem::path& path, const std::string& display);
LogScan scan_log_text(std::string_view text, const std::string& display);

}  // namespace aoti::parsers::logs
