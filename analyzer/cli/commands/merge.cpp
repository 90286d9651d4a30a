// aoti-analyze merge SHARD.jsonl...: the JSONL outputs of sharded scans as one scan.
#include <iterator>

#include "analyzer/cli/commands/commands.hpp"
#include "analyzer/cli/commands/scan_common.hpp"
#include "analyzer/cli/output.hpp"
#include "analyzer/scan/scan.hpp"

namespace aoti::cli {

int run_merge(const Options& options) {
  if (options.inputs.empty()) {
    print_error("merge needs the JSONL files of the shards");
    return k_exit_usage;
  }
  auto db = open_history(options);
  if (!db) return db.error();
  std::vector<scan::PackageResult> results;
  std::vector<model::Diagnostic> diagnostics;
  for (const auto& path : options.inputs) {
    auto part = scan::read_jsonl(path, diagnostics);
    std::move(part.begin(), part.end(), std::back_inserter(results));
  }
  print_diagnostics(diagnostics);
  return finish_scan(options, results, db->get(), describe("merge", options));
}

}  // namespace aoti::cli
