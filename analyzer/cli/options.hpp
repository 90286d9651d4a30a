// Command-line options (Boost.Program_options).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analyzer/core/finding.hpp"

namespace aoti::cli {

enum class Format { text, markdown, json, sarif };

struct Options {
  std::vector<std::string> inputs;
  Format format = Format::text;
  std::string output;                        // empty: standard output
  std::optional<core::Severity> fail_on;     // none: never fail on findings
  bool list_checks = false;
  std::string explain;                       // check id
  bool version = false;
  bool help = false;
  std::string help_text;
};

// Parses argv; on a usage error returns the message in `error` and leaves `options` partial.
Options parse_options(int argc, char** argv, std::string& error);

}  // namespace aoti::cli
