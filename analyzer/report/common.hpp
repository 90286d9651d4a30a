// What the four report writers share: the model facts worth a glance, the verdict, and the
// string hygiene that hostile inputs need before they reach a terminal or a Markdown renderer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/summary/model_summary.hpp"
#include "model/case.hpp"
#include "model/finding.hpp"

namespace aoti::report {

// The plain summary types live below the writers, so that scan records carry them too.
using summary::InputSummary;
using summary::ModelSummary;

ModelSummary summarize(const model::ModelFacts& model);

// A crash as every format presents it.
struct CrashSummary {
  std::string core;    // the core as named
  std::string signal;  // "SIGSEGV (SEGV_MAPERR) at 0x0"
  std::string thread;  // "thread 446"
  std::string
      phase;  // "while loading the model", or "probably while ..." from a stack-scan candidate
  std::string fault;    // the fault decoded: which it is, what it means
  std::string process;  // "pid 446, /usr/bin/python3 script.py"
  std::vector<std::string>
      frames;  // the crashing thread's unwound frames (the call path), model::frame_text
  // Named or model frames that only a stack scan found, shown apart under
  // model::k_stack_scan_label.
  std::vector<std::string> candidates;
};
CrashSummary summarize(const model::CoreFacts& core);

// A GPU core dump's first faulting warp, in the words every writer shows it with.
struct GpuFaultSummary {
  std::string dump;       // the dump as named
  std::string exception;  // "Warp Illegal Address"
  std::string where;      // "triton_poi_fused_embedding_0+0x560, line 33 of cwq4….py"
  std::string thread;     // model::gpu_warp_text
  std::string device;     // "device 0, NVIDIA H200 (sm_90), driver 580.159"
};
// nullopt when the dump shows no faulting warp.
std::optional<GpuFaultSummary> summarize(const model::GpuCoreFacts& core);

// The diagnostics as every writer shows them by default: each one whole, except a tree's many
// C++ compile errors and missing headers (one diagnostic per file and error), which are summarized
// in a few lines — files with compile errors and their counts, the headers found nowhere, most
// frequent first. The full list is in the JSON report and on stderr with -v.
struct DiagnosticsView {
  std::vector<const model::Diagnostic*> whole;
  std::vector<std::string> summary;  // empty when nothing was summarized
  std::size_t summarized = 0;        // how many diagnostics the summary stands for
};
inline constexpr std::size_t k_max_whole_source_diagnostics = 20;
DiagnosticsView view_diagnostics(const std::vector<model::Diagnostic>& diagnostics);

// The op inventory: every op the case's sources define or register a kernel for, with where its
// schema is and its kernels per dispatch key, in name order. `fake` says whether a kernel that
// runs on fake tensors (Meta, a Python fake, CompositeImplicitAutograd) was found for it.
struct OpKernelPlace {
  std::string dispatch_key;  // "CUDA", "Meta", "Fake", ...
  std::string function;      // "" when unresolved
  std::string artifact;
  int line = 0;              // the registration's line
  bool traced = false;       // runs on fake tensors during export
  bool symint_aware = true;  // traced: no SymInt-unaware pattern found in its body
};
struct OpInventoryEntry {
  std::string name;        // "ns::op" or "ns::op.overload"
  std::string schema;      // "" when the sources hold no schema for it (or it is inferred)
  std::string defined_in;  // the file that defines it, "" when none of the sources does
  int defined_line = 0;
  std::string condition;  // the preprocessor branch its definition was read in (SourceOp), or ""
  std::vector<OpKernelPlace> kernels;
  bool fake = false;
};
std::vector<OpInventoryEntry> op_inventory(const model::Case& c);

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

}  // namespace aoti::report
