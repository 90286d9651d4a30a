#include "model/location.hpp"

#include <algorithm>
#include <filesystem>

namespace aoti::model {

std::string Location::display() const {
  std::string out = artifact;
  if (!entry.empty()) out += ":" + entry;
  if (line > 0) out += ":" + std::to_string(line);
  return out;
}

bool same_run(std::string_view artifact_a, std::string_view artifact_b) {
  const auto folder = [](std::string_view path) {
    return std::filesystem::path(path).lexically_normal().parent_path();
  };
  const std::filesystem::path a = folder(artifact_a), b = folder(artifact_b);
  const auto within = [](const std::filesystem::path& inner, const std::filesystem::path& outer) {
    return std::mismatch(outer.begin(), outer.end(), inner.begin(), inner.end()).first ==
           outer.end();
  };
  return within(a, b) || within(b, a);
}

}  // namespace aoti::model
