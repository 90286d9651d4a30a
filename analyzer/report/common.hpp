// What the four report writers share: the model facts worth a glance, the verdict, and the
// string hygiene that hostile inputs need before they reach a terminal or a Markdown renderer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/case.hpp"
#include "model/finding.hpp"

namespace aoti::report {

struct InputSummary {
  std::string name;       // "arg3_1"
  std::string user_name;  // "ids": the forward argument, when a trace names it
  std::string contract;   // "dim 0 (b) in [2, 64], int64 (at::kLong), on cuda; checks only with ..."
};

// One model as every format presents it, computed once so that the formats cannot disagree.
struct ModelSummary {
  std::string name;
  std::string package;  // the package path, or the wrapper's artifact for a standalone wrapper
  std::string device;
  std::string compute_capability;  // as in the metadata: "90"
  std::vector<InputSummary> inputs;
  bool input_checks_need_env = false;
  std::optional<std::size_t> kernel_count;  // empty without a wrapper
  std::string kernel_kind = "Triton kernel";  // "C++ kernel" for a CPU package
  std::vector<std::string> extern_ops;      // custom ops run through the proxy executor
  std::string compiler;                     // from .comment, else the link / compile command
};

ModelSummary summarize(const model::ModelFacts& model);

// A crash as every format presents it.
struct CrashSummary {
  std::string core;        // the core as named
  std::string signal;      // "SIGSEGV (SEGV_MAPERR) at 0x0"
  std::string thread;      // "thread 446"
  std::string phase;       // "while loading the model", or "probably while ..." from a stack-scan candidate
  std::string fault;       // the fault decoded: which it is, what it means
  std::string process;     // "pid 446, /usr/bin/python3 script.py"
  std::vector<std::string> frames;  // the crashing thread's unwound frames (the call path), model::frame_text
  // Named or model frames that only a stack scan found, shown apart under model::k_stack_scan_label.
  std::vector<std::string> candidates;
};
CrashSummary summarize(const model::CoreFacts& core);

// "rank 1: <title>" or "no findings".
std::string verdict(const std::vector<model::Finding>& findings);

// `text` as valid UTF-8 (each invalid byte becomes U+FFFD) with control characters other than
// newline and tab spelled out ("\x1b"), so that no input can drive the terminal or the renderer.
std::string sanitize(std::string_view text);

// Number of code points, the column count for text that sanitize() returned.
std::size_t display_width(std::string_view utf8);

// At most `max_width` code points of `utf8`, ending in "… (N more bytes)" when cut.
std::string truncate(std::string_view utf8, std::size_t max_width);

// "1 finding", "3 findings"
std::string plural(std::size_t n, std::string_view word);

// "620.1 KiB"
std::string human_size(std::uint64_t bytes);

// [{"what": ..., "command": ...}], as both JSON and SARIF carry them.
nlohmann::ordered_json next_steps_json(const std::vector<model::NextStep>& steps);

}  // namespace aoti::report
