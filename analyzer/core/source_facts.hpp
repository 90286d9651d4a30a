// What custom-operator sources tell: schemas, meta / fake kernels, and the SymInt-unaware
// patterns in them, at exact lines.
#pragma once

#include <string>
#include <vector>

namespace aoti::core {

struct SourceFacts {
  std::string artifact;  // the source file
  std::string language;  // "c++" | "python"
};

}  // namespace aoti::core
