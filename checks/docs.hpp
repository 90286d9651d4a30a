// The check doc pages (checks/docs/<id>.md), compiled into the binary by scripts/embed_docs.cmake.
#pragma once

#include <string_view>

namespace aoti::checks {

// The page of check `id`, "" when there is none.
std::string_view doc_page(std::string_view id);

}  // namespace aoti::checks
