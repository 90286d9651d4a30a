// Markdown that no input can break out of, for the case report and the scan report alike: text that
// renders literally, code spans that hold any text, check prose whose `code` spans stay code,
// fences.
#pragma once

#include <string>
#include <string_view>

namespace aoti::report::markdown {

// Sanitized, on one line (newlines and tabs become spaces).
std::string one_line(std::string_view text);

// Text that renders literally, in a table cell too. Only a line start can open a block (list,
// heading, quote, setext underline), and `_` emphasises only at a word boundary, so escapes are
// kept to where they matter and the source stays readable in a ticket.
std::string literal_text(std::string_view text);

// A code span that holds `text` exactly, whatever backticks it contains. In a table cell, GFM
// splits cells before it parses spans, so a pipe needs its backslash even inside the span; a
// backslash already before a pipe cannot be said in a span there, so that text stays plain.
std::string code_span(std::string_view text, bool in_table = false);

// Prose from a check: literal text, except that `code` spans, paired as CommonMark pairs them,
// stay code spans (re-fenced, so their content cannot escape). An unpaired backtick is literal.
std::string prose(std::string_view text, bool in_table = false);

// A fenced block with `info` as its language, long enough a fence that `text` cannot close it.
std::string fenced(std::string_view text, std::string_view info);

}  // namespace aoti::report::markdown
