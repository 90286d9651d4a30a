// What the HTML pages of a case and of a scan share: one page frame (inline CSS, no script, no
// network), escaping, and a finding's section with its chain diagram.
#pragma once

#include <string>
#include <string_view>

#include "model/finding.hpp"

namespace aoti::report::html {

// Sanitized (report::sanitize), then HTML-escaped.
std::string escape(std::string_view text);
// Escaped text whose `code` spans become <code>.
std::string prose(std::string_view text);
// The whole document around `body`.
std::string page(std::string_view title, const std::string& body);
// One finding: title, message, chain diagram, evidence, next steps; `is_new` marks it NEW.
std::string finding_html(const model::Finding& finding, bool is_new);

}  // namespace aoti::report::html
