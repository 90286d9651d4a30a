// The explicit list of checks, in the order they run. Adding a check adds one line to registry.cpp.
#pragma once

#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "checks/check.hpp"

namespace aoti::checks {

const std::vector<std::unique_ptr<Check>>& all_checks();
const Check* find_check(std::string_view id);
// Every check's metadata, in registry order: what the reports list as rules.
std::span<const CheckInfo> check_infos();

}  // namespace aoti::checks
