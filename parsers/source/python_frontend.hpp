// The Python front end: a bounded tokenizer and statement/expression reader (python_syntax.hpp),
// the registrations it finds, and the fake-kernel patterns P1–P8 in them.
#pragma once

#include <string>
#include <string_view>

#include "parsers/source/source_reader.hpp"

namespace aoti::parsers::source {

SourceRead read_python(std::string_view text, const std::string& display);

}  // namespace aoti::parsers::source
