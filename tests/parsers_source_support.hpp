// What the source parser's tests share: a source read or the test failed, the patterns found in
// one function, the pattern of an id at a line.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <string>
#include <vector>

#include "parsers/source/source_reader.hpp"
#include "tests/support.hpp"

namespace aoti::test::source {

using model::SourceFacts;
using model::SourcePattern;
using parsers::source::read_source;
using parsers::source::SourceRead;

inline SourceRead read_ok(const std::filesystem::path& path) {
  auto read = read_source(path, path.filename().string());
  REQUIRE_MESSAGE(read.has_value(), path.string() << ": " << (read ? "" : read.error().message));
  return std::move(*read);
}

inline std::vector<SourcePattern> in_function(const SourceFacts& facts,
                                              const std::string& function) {
  std::vector<SourcePattern> out;
  std::copy_if(facts.violations.begin(), facts.violations.end(), std::back_inserter(out),
               [&](const SourcePattern& v) { return v.function == function; });
  return out;
}

inline const SourcePattern* at_line(const std::vector<SourcePattern>& vs,
                                    const std::string& pattern, int line) {
  for (const SourcePattern& v : vs)
    if (v.id == pattern && v.line == line) return &v;
  return nullptr;
}

}  // namespace aoti::test::source
