// The Python front end: a bounded tokenizer and statement/expression walker (python_syntax.hpp)
// and the fake-kernel rules P1–P8 over what it reads.
#pragma once

#include <string>
#include <string_view>

#include "parsers/source/source_reader.hpp"

namespace aoti::parsers::source {

SourceRead read_python(std::string_view text, const std::string& display);

}  // namespace aoti::parsers::source
