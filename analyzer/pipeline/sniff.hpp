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

// What one file is, by its content first and its name second. A text file of no other kind is a log
// when it was `named` on the command line; found in a folder, only when its name says it holds a
// program's output (stderr.txt, run.log, build.out): a source tree's Doxyfile.in, CMake scripts and
// YAML are not logs, and reading their prose as one invents errors.
SniffedInput sniff(const std::filesystem::path& path, std::string display, bool named = true);

// Expands folders (recursively, sorted, bounded) and sniffs every file. Paths that cannot be
// read become diagnostics.
std::vector<SniffedInput> gather_inputs(const std::vector<std::string>& paths,
                                        std::vector<model::Diagnostic>& diagnostics,
                                        std::size_t max_files = 10000);

}  // namespace aoti::pipeline
