// The explicit list of checks. Adding a check means adding one line to registry.cpp.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "checks/check.hpp"

namespace aoti::checks {

const std::vector<std::unique_ptr<Check>>& all_checks();
const Check* find_check(std::string_view id);

}  // namespace aoti::checks
