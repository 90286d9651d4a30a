// A .pt2 AOTI package: archive format and layout, the models inside, and each model's facts
// (metadata, extern nodes, the .so read as ELF in place) and its raw wrapper source.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "model/case.hpp"
#include "parsers/parse_error.hpp"

namespace aoti::parsers::pt2 {

struct Pt2Contents {
  ::aoti::model::PackageFacts package;
  // ModelFacts::wrapper is left unset: the analyzer parses the wrapper sources.
  std::vector<::aoti::model::ModelFacts> models;
  // Aligned with `models`: the text of each model's <hash>.wrapper.cpp (at most 64 MiB), empty
  // when the model has none or it could not be read (a diagnostic then says why).
  std::vector<std::string> wrapper_sources;
  // Aligned with `models`: the text of each model's <hash>.kernel.cpp (the C++ kernels of a CPU
  // model) and that entry's name; empty when there is none.
  std::vector<std::string> kernel_sources;
  std::vector<std::string> kernel_entries;
  // Problems with single entries (a wrapper too large, a .so that is not ELF, bad JSON): the
  // package is still analyzed from what could be read.
  std::vector<::aoti::model::Diagnostic> diagnostics;
};

// True when the file is a zip whose archive_format entry says "pt2" (content sniffing).
bool looks_like_pt2(const std::filesystem::path& path);

// `display` is how the package is named in locations and diagnostics.
Parsed<Pt2Contents> read_package(const std::filesystem::path& path, const std::string& display);

}  // namespace aoti::parsers::pt2
