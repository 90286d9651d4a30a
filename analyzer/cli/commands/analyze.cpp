// aoti-analyze INPUT...: one case read, checked, ranked and reported.
#include <iostream>

#include <fmt/format.h>

#include "analyzer/cli/commands/commands.hpp"
#include "analyzer/cli/output.hpp"
#include "analyzer/pipeline/analyze.hpp"
#include "analyzer/report/report.hpp"
#include "checks/registry.hpp"

namespace aoti::cli {
namespace {

std::string render(const Options& options, const model::Case& c,
                   const std::vector<model::Finding>& findings) {
  switch (options.format) {
    case Format::text:
      return report::render_text(c, findings, color_wanted(options), text_width(options));
    case Format::markdown:
      return report::render_markdown(c, findings);
    case Format::json:
      return report::render_json(c, findings);
    case Format::sarif:
      return report::render_sarif(c, findings, checks::check_infos());
    case Format::html:
      return report::render_html(c, findings);
    case Format::jsonl:
      break;  // refused by the option parser
  }
  return {};
}

}  // namespace

int run_analyze(const Options& options) {
  if (options.inputs.empty()) {
    std::cerr << "aoti-analyze: no input given\n" << options.help_text;
    return k_exit_usage;
  }
  model::Case c = pipeline::load_case(options.inputs, options.verify);
  std::vector<model::Finding> findings = pipeline::run_checks(c);
  pipeline::rank(findings);
  if (!emit(options, render(options, c, findings))) return k_exit_usage;
  if (options.verbose) {
    for (const auto& a : c.artifacts)
      std::cerr << fmt::format("aoti-analyze: read {} as {}: {}\n", a.path,
                               model::to_string(a.kind), a.note);
    for (const auto& core : c.cores)
      for (const auto& note : core.health)
        std::cerr << "aoti-analyze: " << core.artifact << ": " << note << "\n";
  }
  print_diagnostics(c.diagnostics, options.verbose);
  if (!pipeline::anything_analyzed(c)) return k_exit_usage;
  return exit_for(options, findings);
}

}  // namespace aoti::cli
