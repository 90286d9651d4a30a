// Report writers. Findings arrive ranked (rank 1 first); writers only format.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "checks/check.hpp"
#include "model/case.hpp"
#include "model/finding.hpp"

namespace aoti::report {

// Prose wraps at `width` columns (the terminal's when the report goes to one, else 100);
// commands, locations and excerpts are never wrapped, so they copy whole.
inline constexpr std::size_t k_default_text_width = 100;
std::string render_text(const model::Case& c, const std::vector<model::Finding>& findings,
                        bool color, std::size_t width = k_default_text_width);
std::string render_markdown(const model::Case& c, const std::vector<model::Finding>& findings);
// {"schema": "aoti-analyze/1", "tool", "artifacts", "models", "findings", "diagnostics"}
std::string render_json(const model::Case& c, const std::vector<model::Finding>& findings);
// SARIF 2.1.0: one run, one rule per check in `checks` (the registry's, checks::check_infos()), one
// result per finding.
std::string render_sarif(const model::Case& c, const std::vector<model::Finding>& findings,
                         std::span<const checks::CheckInfo> checks);
// One self-contained HTML file (no network, no external assets): findings ranked, evidence, next
// steps, and inline SVG diagrams (a finding's chain, the crashing thread's frames).
std::string render_html(const model::Case& c, const std::vector<model::Finding>& findings);

}  // namespace aoti::report
