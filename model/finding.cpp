#include "model/finding.hpp"

namespace aoti::model {

std::string_view to_string(Severity severity) {
  switch (severity) {
    case Severity::note: return "note";
    case Severity::warning: return "warning";
    case Severity::error: return "error";
  }
  return "note";
}

std::string_view to_string(EvidenceKind kind) { return kind == EvidenceKind::quote ? "quote" : "fact"; }

bool parse_severity(std::string_view text, Severity& out) {
  if (text == "note") out = Severity::note;
  else if (text == "warning") out = Severity::warning;
  else if (text == "error") out = Severity::error;
  else return false;
  return true;
}

}  // namespace aoti::model
