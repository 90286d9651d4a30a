#include "model/artifact.hpp"

namespace aoti::model {

SourceText::SourceText(std::string text) : m_text(std::move(text)) {
  if (m_text.empty()) return;
  m_starts.push_back(0);
  for (std::size_t i = 0; i < m_text.size(); ++i)
    if (m_text[i] == '\n' && i + 1 < m_text.size()) m_starts.push_back(i + 1);
}

std::string_view SourceText::line(int n) const {
  if (n < 1 || static_cast<std::size_t>(n) > m_starts.size()) return {};
  const std::size_t begin = m_starts[static_cast<std::size_t>(n - 1)];
  std::size_t end = m_text.find('\n', begin);
  if (end == std::string::npos) end = m_text.size();
  if (end > begin && m_text[end - 1] == '\r') --end;
  return std::string_view(m_text).substr(begin, end - begin);
}

std::string_view to_string(ArtifactKind kind) {
  switch (kind) {
    case ArtifactKind::package:
      return "package";
    case ArtifactKind::model_so:
      return "model-so";
    case ArtifactKind::wrapper_source:
      return "wrapper";
    case ArtifactKind::log:
      return "log";
    case ArtifactKind::core_dump:
      return "core";
    case ArtifactKind::gpu_core_dump:
      return "gpu-core";
    case ArtifactKind::trace:
      return "trace";
    case ArtifactKind::source:
      return "source";
    case ArtifactKind::compile_database:
      return "compile-db";
    case ArtifactKind::tensor_dump:
      return "tensor-dump";
    case ArtifactKind::unknown:
      return "unknown";
  }
  return "unknown";
}

}  // namespace aoti::model
