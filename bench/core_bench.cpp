// core_bench CORE [PACKAGE...]: read_core + render_backtrace, as `aoti-analyze --backtrace`
// will run them, for bench/core_analysis.sh until the CLI flag exists.
#include <cstdio>
#include <vector>

// pt2 first: its header says `model::` for aoti::model, which aoti::parsers::coredump would shadow.
#include "analyzer/report/backtrace.hpp"
#include "parsers/coredump/core_reader.hpp"
#include "parsers/pt2/pt2_package.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: core_bench CORE [PACKAGE...]\n");
    return 2;
  }
  std::vector<aoti::parsers::coredump::ModelObject> models;
  for (int i = 2; i < argc; ++i) {
    auto package = aoti::parsers::pt2::read_package(argv[i], argv[i]);
    if (!package) {
      std::fprintf(stderr, "%s\n", package.error().message.c_str());
      return 2;
    }
    for (const auto& model : package->models)
      if (model.so && !model.so->build_id.empty())
        models.push_back({model.so->build_id, argv[i], model.so->where.entry});
  }
  auto core = aoti::parsers::coredump::read_core(argv[1], argv[1], models);
  if (!core) {
    std::fprintf(stderr, "%s\n", core.error().message.c_str());
    return 2;
  }
  std::fputs(aoti::report::render_backtrace(*core).c_str(), stdout);
  return 0;
}
