#include "checks/check.hpp"

#include "checks/docs.hpp"

namespace aoti::checks {

std::string_view Check::doc() const { return doc_page(id()); }

model::Finding new_finding(const CheckInfo& check, model::Severity severity, double confidence) {
  model::Finding f;
  f.check = std::string(check.id);
  f.severity = severity;
  f.confidence = confidence;
  return f;
}

}  // namespace aoti::checks
