#include "analyzer/cli/options.hpp"

#include <sstream>

#include <boost/program_options.hpp>

namespace aoti::cli {
namespace po = boost::program_options;

Options parse_options(int argc, char** argv, std::string& error) {
  Options options;
  std::string format = "text";
  std::string fail_on;
  po::options_description visible(
      "Usage: aoti-analyze [options] INPUT...\n\n"
      "INPUT: a .pt2 package, a wrapper .cpp, a log (stderr, stdout), or a folder holding any of them.\n\n"
      "Options");
  visible.add_options()
      ("format,f", po::value(&format)->value_name("FMT"), "report format: text (default), markdown, json, sarif")
      ("output,o", po::value(&options.output)->value_name("FILE"), "write the report to FILE instead of standard output")
      ("fail-on", po::value(&fail_on)->value_name("SEV"), "exit 1 when a finding is at least SEV: note, warning, error")
      ("list-checks", po::bool_switch(&options.list_checks), "list every check with its id and summary")
      ("explain", po::value(&options.explain)->value_name("CHECK"), "print the documentation of a check")
      ("version", po::bool_switch(&options.version), "print the version")
      ("help,h", po::bool_switch(&options.help), "print this help");
  po::options_description hidden;
  hidden.add_options()("input", po::value(&options.inputs));
  po::options_description all;
  all.add(visible).add(hidden);
  po::positional_options_description positional;
  positional.add("input", -1);

  std::ostringstream help;
  help << visible << "\nExit status: 0 no finding at or above --fail-on, 1 findings at or above it, "
                     "2 usage error or nothing could be analyzed.\n";
  options.help_text = help.str();
  try {
    po::variables_map vm;
    po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    error = e.what();
    return options;
  }
  if (format == "text") options.format = Format::text;
  else if (format == "markdown" || format == "md") options.format = Format::markdown;
  else if (format == "json") options.format = Format::json;
  else if (format == "sarif") options.format = Format::sarif;
  else error = "unknown format '" + format + "' (text, markdown, json, sarif)";
  if (!fail_on.empty()) {
    core::Severity severity;
    if (core::parse_severity(fail_on, severity)) options.fail_on = severity;
    else error = "unknown severity '" + fail_on + "' for --fail-on (note, warning, error)";
  }
  return options;
}

}  // namespace aoti::cli
