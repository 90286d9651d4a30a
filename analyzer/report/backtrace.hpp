// `aoti-analyze --backtrace`: every thread of a core dump, as eu-stack and gdb print them.
#pragma once

#include <string>

#include "model/facts/core_dump.hpp"

namespace aoti::report {

// Every thread's frames, the crashing thread first, as eu-stack/gdb print them:
// "#0  0x... in symbol+0x12 (module)"; stack-scanned frames are marked.
std::string render_backtrace(const model::CoreFacts& core);

}  // namespace aoti::report
