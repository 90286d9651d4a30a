// Command-line options (Boost.Program_options).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <tl/expected.hpp>

#include "model/severity.hpp"

namespace aoti::cli {

enum class Command { analyze, scan, history, merge };
enum class Format { text, markdown, json, jsonl, sarif, html };

struct Options {
  Command command = Command::analyze;
  std::vector<std::string> inputs;
  Format format = Format::text;
  bool format_given = false;
  std::string output;                      // empty: standard output
  std::optional<model::Severity> fail_on;  // none: never fail on findings
  bool list_checks = false;
  std::string explain;    // check id
  std::string backtrace;  // core file, with --backtrace
  std::string summary;    // trace file or folder, with --summary
  bool verify = false;    // check every trace payload's MD5, however large the trace
  bool version = false;
  bool verbose = false;  // what was read, and how (a decompressed core's private file), on stderr
  bool help = false;
  std::string help_text;
  // scan, merge, history
  unsigned jobs = 0;
  std::string baseline;
  std::string db;
  bool force = false;
  std::string shard;  // "I/N"
};

// A command line that cannot be run: unknown option, bad value, missing argument.
struct UsageError {
  std::string message;
};

tl::expected<Options, UsageError> parse_options(int argc, char** argv);

}  // namespace aoti::cli
