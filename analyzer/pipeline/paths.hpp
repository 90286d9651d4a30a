// Where an artifact sits, for the pipeline's "outputs of one run sit in one folder" rules.
#pragma once

#include <filesystem>
#include <string>

namespace aoti::pipeline {

// The folder of an artifact as displayed, normalized: "run/./stderr.txt" -> "run".
inline std::filesystem::path folder_of(const std::string& artifact) {
  return std::filesystem::path(artifact).lexically_normal().parent_path();
}

}  // namespace aoti::pipeline
