#include "checks/docs.hpp"

#include <cstddef>
#include <utility>

namespace aoti::checks {

// Generated from checks/docs/*.md (build/generated/check_docs.cpp).
extern const std::pair<std::string_view, std::string_view> k_check_docs[];
extern const std::size_t k_check_doc_count;

std::string_view doc_page(std::string_view id) {
  for (std::size_t i = 0; i < k_check_doc_count; ++i)
    if (k_check_docs[i].first == id) return k_check_docs[i].second;
  return {};
}

}  // namespace aoti::checks
