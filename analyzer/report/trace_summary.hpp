// `aoti-analyze --summary TRACE`: a quick, deterministic look at what a trace holds.
#pragma once

#include <string>

#include "model/facts/trace.hpp"

namespace aoti::report {

std::string render_trace_summary(const model::TraceFacts& facts);

}  // namespace aoti::report
