// Times read_source on one file: `source_bench FILE` prints what was found and the seconds taken.
#include <chrono>
#include <cstdio>

#include "parsers/source/source_reader.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: source_bench FILE\n");
    return 2;
  }
  const auto start = std::chrono::steady_clock::now();
  const auto read = aoti::parsers::source::read_source(argv[1], argv[1]);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!read) {
    std::fprintf(stderr, "source_bench: %s\n", read.error().message.c_str());
    return 1;
  }
  std::printf("ops=%zu kernels=%zu violations=%zu diagnostics=%zu seconds=%.3f\n",
              read->facts.ops.size(), read->facts.kernels.size(), read->facts.violations.size(),
              read->diagnostics.size(), seconds);
  return 0;
}
