// Building findings: evidence (quotes of an artifact's own lines, derived facts), where wrapper and
// kernel lines are, and the small text helpers findings are written with.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/case.hpp"
#include "model/finding.hpp"

namespace aoti::checks {

const model::ModelFacts* model_of(const model::Case& c, const model::LogEvent& e);

// At most `max` bytes of `text`, cut on a UTF-8 character boundary, with a visible `…` when cut.
std::string cut(std::string_view text, std::size_t max);

// A line as a quote shows it: surrounding whitespace trimmed, cut (with `…`) past 1,000 bytes.
std::string quoted_line(std::string_view line);

// Evidence is built here only: quotes take the artifact's own text, so they cannot drift from it.
// The log line an event was read from, quoted.
model::Evidence event_evidence(const model::LogEvent& e, std::string note);

// Wrapper lines first..last (last = 0: one line), quoted from the wrapper's text.
model::Evidence quote_wrapper(const model::WrapperFacts& w, int first, std::string note,
                              int last = 0);

// `text` cut at `max` as a Markdown code span, fenced with more backticks than it holds (a quoted
// error may contain backticks of its own).
std::string code_span(std::string_view text, std::size_t max = 160);

// A line of a log as the log holds it (trimmed, as the log reader keeps lines): a quote.
model::Evidence log_quote(model::Location where, std::string text, std::string note);

// A statement derived from the artifacts at `where`: never shown as the artifact's text.
model::Evidence fact(model::Location where, std::string statement, std::string note);

// The first wrapper line in first..first+span holding `needle` (0 if none): where one field of a
// multi-line declaration is, e.g. `constants_info_[2].device_type` after `constants_info_[2].name`.
int wrapper_line_with(const model::WrapperFacts& w, int first, std::string_view needle,
                      int span = 24);

// The wrapper's own location with `line` set.
model::Location wrapper_at(const model::WrapperFacts& w, int line);

// Where line `line` of a kernel's source is: the wrapper for Triton kernels (and C++ kernels a
// single-file wrapper defines), the kernel file (<hash>.kernel.cpp, a trace's dump) otherwise.
model::Location kernel_at(const model::WrapperFacts& w, const model::TritonKernel& kernel,
                          int line);

// A line of a kernel, quoted: from the wrapper's own text for a kernel embedded in it, else the
// line the parser kept from the kernel's file (<hash>.kernel.cpp, a trace's kernel dump);
// `statement` as a derived fact when neither is there.
model::Evidence quote_kernel(const model::WrapperFacts& w, const model::TritonKernel& kernel,
                             int line, const std::string& text, std::string statement,
                             std::string note);

std::string shape_text(const std::vector<std::int64_t>& shape);  // "[1000, 32]"

std::string join(const std::vector<std::string>& parts, std::string_view separator = ", ");

// Where a model's device type comes from, as evidence: the metadata's AOTI_DEVICE_KEY, else the
// device runtime its .so links (a bare model .so has no metadata); nullopt when only the wrapper
// suggests it.
std::optional<model::Evidence> device_evidence(const model::ModelFacts& model);

// "package" for a model read from a .pt2, "model .so" for a bare one: what the user handed over.
std::string artifact_word(const model::ModelFacts& model);

// A core's location as evidence.
model::Location core_location(const model::CoreFacts& core);

}  // namespace aoti::checks
