// The C1–C8 patterns in the kernels a C++ source registers. Internal to parsers/source.
#pragma once

#include <string>

#include "model/facts/source.hpp"
#include "parsers/source/clang_cursor.hpp"
#include "parsers/source/cpp_registrations.hpp"

namespace aoti::parsers::source {

// Appends a SourceKernel per registered kernel to `facts.kernels` (traced ones analyzed) and the
// patterns found to `facts.violations`, unsorted; `facts.ops` holds the registered ops.
void find_cpp_patterns(const CppRegistrations& registrations, const MainFile& file,
                       const std::string& display, model::SourceFacts& facts);

}  // namespace aoti::parsers::source
