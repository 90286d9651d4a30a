// Decides what an input file is from its content (the name is only a hint for .pt2 files that are
// not zips, so they get a package diagnostic instead of being read as logs).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "model/case.hpp"

namespace aoti::pipeline {

struct SniffedInput {
  std::filesystem::path path;
  std::string display;  // as the user named it, or relative to the folder they gave
  model::ArtifactKind kind = model::ArtifactKind::unknown;
  std::uint64_t size = 0;
  std::string what;  // "xz-compressed ELF core dump", "TORCH_TRACE log", "binary file", ...
};

SniffedInput sniff(const std::filesystem::path& path, std::string display);

// Expands folders (recursively, sorted, bounded) and sniffs every file. Paths that cannot be
// read become diagnostics.
std::vector<SniffedInput> gather_inputs(const std::vector<std::string>& paths,
                                        std::vector<model::Diagnostic>& diagnostics,
                                        std::size_t max_files = 10000);

}  // namespace aoti::pipeline
