// One function per command; main() only chooses among them. Each returns the exit status.
#pragma once

#include <string>

#include "analyzer/cli/options.hpp"

namespace aoti::cli {

int run_analyze(const Options& options);    // aoti-analyze INPUT...
int run_scan(const Options& options);       // aoti-analyze scan PATH...
int run_merge(const Options& options);      // aoti-analyze merge SHARD.jsonl...
int run_history(const Options& options);    // aoti-analyze history --db FILE
int run_backtrace(const Options& options);  // aoti-analyze --backtrace CORE [PACKAGE...]
int run_summary(const Options& options);    // aoti-analyze --summary TRACE
int run_list_checks();                      // aoti-analyze --list-checks
int run_explain(const std::string& check);  // aoti-analyze --explain CHECK

}  // namespace aoti::cli
