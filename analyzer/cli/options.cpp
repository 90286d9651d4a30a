#include "analyzer/cli/options.hpp"

#include <sstream>
#include <string_view>

#include <boost/program_options.hpp>

namespace aoti::cli {
namespace po = boost::program_options;
namespace {

constexpr std::string_view k_usage = R"(Usage:
  aoti-analyze [options] INPUT...          analyze one case: a .pt2 or model .so, logs, a core, a trace,
                                           custom-op sources or an extension tree, a folder
  aoti-analyze --backtrace CORE [PACKAGE or MODEL.so...] [GPU-CORE...]
                                           every thread's frames, the crashing thread first, then
                                           the faulting warps of a GPU core dump
  aoti-analyze --summary TRACE             what a TORCH_TRACE log or tlparse folder holds
  aoti-analyze scan [options] PATH...      every package under PATH, each with the artifacts beside it
  aoti-analyze merge [options] SHARD.jsonl...  combine the JSONL outputs of sharded scans
  aoti-analyze history --db FILE           what is new, fixed and recurring since the previous scan
)";

std::optional<Format> parse_format(const std::string& text) {
  if (text == "text") return Format::text;
  if (text == "markdown" || text == "md") return Format::markdown;
  if (text == "json") return Format::json;
  if (text == "jsonl") return Format::jsonl;
  if (text == "sarif") return Format::sarif;
  if (text == "html") return Format::html;
  return std::nullopt;
}

}  // namespace

tl::expected<Options, UsageError> parse_options(int argc, char** argv) {
  Options options;
  std::string error;  // the last problem found is the one told
  int first = 1;
  if (argc > 1) {
    const std::string_view word = argv[1];
    if (word == "scan")
      options.command = Command::scan, first = 2;
    else if (word == "history")
      options.command = Command::history, first = 2;
    else if (word == "merge")
      options.command = Command::merge, first = 2;
  }
  std::string format;
  std::string fail_on;
  po::options_description common("Options");
  common.add_options()("format,f", po::value(&format)->value_name("FMT"),
                       "text (default), markdown, json, sarif, html; scans and merges also jsonl "
                       "(one line per package)")(
      "output,o", po::value(&options.output)->value_name("FILE"),
      "write the report to FILE instead of standard output")(
      "fail-on", po::value(&fail_on)->value_name("SEV"),
      "exit 1 when a finding is at least SEV: note, warning, error")(
      "list-checks", po::bool_switch(&options.list_checks),
      "list every check with its id and summary")("explain",
                                                  po::value(&options.explain)->value_name("CHECK"),
                                                  "print the documentation of a check")(
      "backtrace", po::value(&options.backtrace)->value_name("CORE"),
      "print every thread's frames of a core dump")(
      "summary", po::value(&options.summary)->value_name("TRACE"),
      "summarize a TORCH_TRACE log or tlparse folder")(
      "verify", po::bool_switch(&options.verify),
      "check every TORCH_TRACE payload against its MD5 (by default only in logs up to 64 MiB, "
      "and in larger ones the payloads a finding reads)")(
      "verbose,v", po::bool_switch(&options.verbose),
      "say on stderr what each input was read as, and how")(
      "version", po::bool_switch(&options.version), "print the version")(
      "help,h", po::bool_switch(&options.help), "print this help");
  po::options_description scanning("Scans (scan, merge, history)");
  scanning.add_options()("jobs,j", po::value(&options.jobs)->value_name("N"),
                         "packages analyzed at once (default: all cores)")(
      "baseline", po::value(&options.baseline)->value_name("JSONL"),
      "mark findings new / still there / fixed against a previous scan")(
      "db", po::value(&options.db)->value_name("FILE"),
      "SQLite history: record the scan, skip unchanged packages")(
      "force", po::bool_switch(&options.force), "analyze unchanged packages again")(
      "shard", po::value(&options.shard)->value_name("I/N"),
      "take only shard I of N (0-based), by path hash");
  po::options_description hidden;
  hidden.add_options()("input", po::value(&options.inputs));
  po::options_description all;
  all.add(common).add(scanning).add(hidden);
  po::positional_options_description positional;
  positional.add("input", -1);

  std::ostringstream help;
  help << k_usage << "\n"
       << common << "\n"
       << scanning
       << "\nExit status: 0 no finding at or above --fail-on, 1 findings at or above it, "
          "2 usage error or nothing could be analyzed.\n";
  options.help_text = help.str();
  try {
    po::variables_map vm;
    po::store(po::command_line_parser(argc - first + 1, argv + first - 1)
                  .options(all)
                  .positional(positional)
                  .run(),
              vm);
    po::notify(vm);
  } catch (const po::error& e) {
    return tl::unexpected(UsageError{e.what()});
  }
  if (!format.empty()) {
    const auto parsed = parse_format(format);
    if (!parsed)
      error = "unknown format '" + format + "' (text, markdown, json, jsonl, sarif, html)";
    else
      options.format = *parsed, options.format_given = true;
  }
  if (options.format == Format::jsonl && options.command == Command::analyze)
    error = "jsonl is for scan and merge; use json for one case";
  if (!fail_on.empty()) {
    model::Severity severity;
    if (model::parse_severity(fail_on, severity))
      options.fail_on = severity;
    else
      error = "unknown severity '" + fail_on + "' for --fail-on (note, warning, error)";
  }
  if (options.command == Command::history && options.db.empty()) error = "history needs --db FILE";
  if (!error.empty()) return tl::unexpected(UsageError{std::move(error)});
  return options;
}

}  // namespace aoti::cli
