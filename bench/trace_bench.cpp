// Driver for bench/trace_ingest.sh: reads one trace with read_trace and prints its ingest
// throughput, or with --summary the summary text.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

#include "analyzer/report/trace_summary.hpp"
#include "parsers/trace/trace_reader.hpp"

int main(int argc, char** argv) {
  const bool summary = argc == 3 && std::string(argv[1]) == "--summary";
  if (argc != 2 && !summary) {
    std::fprintf(stderr, "usage: trace_bench [--summary] TRACE\n");
    return 2;
  }
  const std::filesystem::path path = argv[argc - 1];
  const auto start = std::chrono::steady_clock::now();
  auto read = aoti::parsers::trace::read_trace(path, path.string());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!read) {
    std::fprintf(stderr, "%s: %s\n", path.c_str(), read.error().message.c_str());
    return 1;
  }
  if (summary) {
    std::fputs(aoti::report::render_trace_summary(read->facts).c_str(), stdout);
    for (const auto& d : read->diagnostics)
      std::printf("diagnostic: %s: %s\n", d.artifact.c_str(), d.message.c_str());
    return 0;
  }
  std::error_code error;
  const double megabytes = std::filesystem::is_regular_file(path, error)
                               ? static_cast<double>(std::filesystem::file_size(path)) / 1e6
                               : 0.0;
  std::printf("records=%llu lines=%llu seconds=%.3f MB=%.1f MB/s=%.1f\n",
              static_cast<unsigned long long>(read->facts.records),
              static_cast<unsigned long long>(read->facts.lines), seconds, megabytes,
              seconds > 0 ? megabytes / seconds : 0.0);
  return 0;
}
