// How serious a finding is. The names are also SARIF's `level` values and what --fail-on takes.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace aoti::model {

// Ordered: a higher value is worse, and writers index per-severity tables by it.
enum class Severity { note = 0, warning = 1, error = 2 };

// The one table of severity names, in enum order.
inline constexpr std::array<std::string_view, 3> k_severity_names = {"note", "warning", "error"};

constexpr std::size_t index_of(Severity severity) { return static_cast<std::size_t>(severity); }

constexpr std::string_view to_string(Severity severity) {
  return k_severity_names[index_of(severity)];
}

constexpr std::optional<Severity> severity_named(std::string_view name) {
  for (std::size_t i = 0; i < k_severity_names.size(); ++i)
    if (k_severity_names[i] == name) return static_cast<Severity>(i);
  return std::nullopt;
}

// The same, for callers that keep their default when `text` names no severity.
inline bool parse_severity(std::string_view text, Severity& out) {
  const auto severity = severity_named(text);
  if (severity) out = *severity;
  return severity.has_value();
}

}  // namespace aoti::model
