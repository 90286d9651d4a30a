// The inputs of a case as the user gave them (or as found in a folder), and the text of one.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace aoti::model {

enum class ArtifactKind {
  package,
  model_so,
  wrapper_source,
  log,
  core_dump,
  gpu_core_dump,
  trace,
  source,
  compile_database,  // a compile_commands.json: the flags of the C++ sources beside it
  tensor_dump,       // a torch.save file: a tensor the intermediate value printer saved (mode 1)
  unknown
};
std::string_view to_string(ArtifactKind kind);

// A text artifact's own lines, kept so that checks quote them instead of rebuilding them.
class SourceText {
 public:
  SourceText() = default;
  explicit SourceText(std::string text);
  // Line n (1-based) without its line break; empty past the end.
  std::string_view line(int n) const;
  int line_count() const { return static_cast<int>(m_starts.size()); }
  const std::string& text() const { return m_text; }

 private:
  std::string m_text;
  std::vector<std::size_t> m_starts;  // offset of each line's first byte
};

struct Artifact {
  std::string path;
  ArtifactKind kind = ArtifactKind::unknown;
  std::uint64_t size = 0;
  bool analyzed = false;  // false: recognised but not read (kind not supported yet) or unreadable
  std::string note;       // why it was not analyzed, or what was read
};

}  // namespace aoti::model
