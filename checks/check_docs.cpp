// Check::doc(): looks up the doc page embedded from checks/docs/<id>.md.
#include <string_view>
#include <utility>

#include "checks/check.hpp"

namespace aoti::checks {
extern const std::pair<std::string_view, std::string_view> k_check_docs[];
extern const std::size_t k_check_doc_count;
}  // namespace aoti::checks

namespace aoti::checks {

std::string_view Check::doc() const {
  for (std::size_t i = 0; i < checks::k_check_doc_count; ++i)
    if (checks::k_check_docs[i].first == id()) return checks::k_check_docs[i].second;
  return {};
}

}  // namespace aoti::checks
