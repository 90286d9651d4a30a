// The generated code a log holds (TORCH_LOGS="output_code"): AOTInductor's C++ wrapper, logged one
// line a record after `[__output_code] Output wrapper code:`. Kept in the log scanner's one pass,
// so a log given without its package still yields the kernels, the launches and their lines.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace aoti::parsers::logs {

struct OutputCode {
  int first_line = 0;  // the log line of the code's line 1
  std::string code;    // the code, each line without the logger's prefix
  std::string raw;     // the same lines as the log holds them (what quotes show)
  bool cut = false;    // longer than the cap: the rest was not kept
  // `[__output_code] Wrapper code written to: <path>`: the file it was compiled from, "" when the
  // log does not say.
  std::string file;
};

class OutputCodeReader {
 public:
  // `raw` as the log holds the line.
  void scan(std::string_view raw, int number);
  std::optional<OutputCode> finish();

 private:
  std::optional<OutputCode> m_code;
  bool m_open = false;  // inside the first wrapper's lines
  bool m_done = false;  // one wrapper a log: the first
  bool m_named = false;
};

}  // namespace aoti::parsers::logs
