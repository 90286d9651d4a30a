// What every command shares: the exit codes, where a report goes, and how diagnostics are told.
#pragma once

#include <string>
#include <vector>

#include "analyzer/cli/options.hpp"
#include "model/case.hpp"
#include "model/finding.hpp"

namespace aoti::cli {

// The exit status, as --help documents it.
inline constexpr int k_exit_ok = 0;
inline constexpr int k_exit_findings = 1;  // a finding at or above --fail-on
inline constexpr int k_exit_usage =
    2;  // usage error, nothing could be analyzed, or an internal error

// Each diagnostic on stderr, "aoti-analyze: <artifact>: <message>" ("aoti-analyze: check <id>: ..."
// for a check that failed), so that a report piped into a file still leaves a trace on the
// terminal.
// On stderr: every diagnostic with `verbose`, else a tree's many C++ compile errors and missing
// headers summarized as the reports show them (report::view_diagnostics).
void print_diagnostics(const std::vector<model::Diagnostic>& diagnostics, bool verbose = true);
// One message on stderr, "aoti-analyze: <message>".
void print_error(const std::string& message);

// Colors only on a terminal, never with NO_COLOR or -o.
bool color_wanted(const Options& options);
// The text report's width: the terminal's when it goes to one ($COLUMNS, as the shell keeps it,
// else the terminal's own size), 100 columns for files and pipes.
std::size_t text_width(const Options& options);

// Writes the report where it was asked for (-o FILE or stdout); false (and a message) when it
// cannot.
bool emit(const Options& options, const std::string& report);

// k_exit_findings when a finding is at least --fail-on, else k_exit_ok.
int exit_for(const Options& options, const std::vector<model::Finding>& findings);

}  // namespace aoti::cli
