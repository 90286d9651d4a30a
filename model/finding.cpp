#include "model/finding.hpp"

namespace aoti::model {

std::string_view to_string(EvidenceKind kind) {
  return kind == EvidenceKind::quote ? "quote" : "fact";
}

}  // namespace aoti::model
