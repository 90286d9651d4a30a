// The C++ front end: libclang (C API) over the file with bundled torch declarations.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "parsers/source/source_reader.hpp"

namespace aoti::parsers::source {

// `text` is the file's content (already read and checked to be text); `out.facts.artifact` set.
Parsed<SourceRead> read_cpp(const std::filesystem::path& path, std::string_view text,
                            const std::string& display, const SourceOptions& options);

}  // namespace aoti::parsers::source
