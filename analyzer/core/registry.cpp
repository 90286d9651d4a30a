#include "analyzer/core/registry.hpp"

namespace aoti::core {

const std::vector<std::unique_ptr<Check>>& all_checks() {
  static const std::vector<std::unique_ptr<Check>> checks = [] {
    std::vector<std::unique_ptr<Check>> list;
    return list;
  }();
  return checks;
}

const Check* find_check(std::string_view id) {
  for (const auto& check : all_checks())
    if (check->id() == id) return check.get();
  return nullptr;
}

}  // namespace aoti::core
