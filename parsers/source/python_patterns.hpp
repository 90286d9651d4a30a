// The P1–P8 patterns in the Python fake / Meta kernels a source registers, and C5 in its schema
// strings. Internal to parsers/source.
#pragma once

#include <string>
#include <string_view>

#include "model/facts/source.hpp"
#include "parsers/source/python_registrations.hpp"

namespace aoti::parsers::source {

// Appends a SourceKernel per registered kernel to `facts.kernels` (traced ones analyzed) and the
// patterns found to `facts.violations`, unsorted; `facts.ops` holds the registered ops.
void find_python_patterns(const PythonRegistrations& registrations, std::string_view text,
                          const std::string& display, model::SourceFacts& facts);

}  // namespace aoti::parsers::source
