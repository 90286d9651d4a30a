#include "checks/support/commands.hpp"

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "checks/support/finding.hpp"
#include "util/text.hpp"

namespace aoti::checks {
using namespace aoti::model;

std::string shell_quote(std::string_view text) {
  std::string out = "'";
  for (char ch : text) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

std::string shell_word(std::string_view text) {
  constexpr std::string_view k_plain =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=+@,%";
  if (!text.empty() && text.find_first_not_of(k_plain) == std::string_view::npos)
    return std::string(text);
  return shell_quote(text);
}

std::string show_lines_command(const Location& where, int first, int last) {
  first = std::max(first, 1);
  if (where.entry.empty())
    return fmt::format("sed -n '{},{}p' {}", first, last, shell_quote(where.artifact));
  return fmt::format("unzip -p {} {} | sed -n '{},{}p'", shell_quote(where.artifact),
                     shell_quote(where.entry), first, last);
}

std::string show_wrapper_lines_command(const WrapperFacts& w, int first, int last) {
  return show_lines_command(w.where, first + w.line_offset, last + w.line_offset);
}

OpName parse_op_name(std::string_view text) {
  if (text.starts_with("torch.ops.")) text.remove_prefix(10);
  OpName op;
  std::string_view rest;
  if (const auto colons = text.find("::"); colons != std::string_view::npos) {
    op.ns = std::string(text.substr(0, colons));
    rest = text.substr(colons + 2);
  } else if (const auto dot = text.find('.'); dot != std::string_view::npos) {
    op.ns = std::string(text.substr(0, dot));
    rest = text.substr(dot + 1);
  }
  const auto dot = rest.find('.');
  op.name = std::string(rest.substr(0, dot));
  if (dot != std::string_view::npos && dot + 1 < rest.size())
    op.overload = std::string(rest.substr(dot + 1));
  return op;
}

namespace {
bool is_identifier(const std::string& name) {
  return !name.empty() && !std::isdigit(static_cast<unsigned char>(name.front())) &&
         std::all_of(name.begin(), name.end(), [](char ch) {
           return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
         });
}
}  // namespace

NextStep opcheck_step(const Case& c, std::string_view op_text, std::string what) {
  const OpName op = parse_op_name(op_text);
  if (!op.valid()) return {std::move(what), "", "python"};
  std::vector<std::string> args, tensors;
  bool found = false;
  for (const auto& model : c.models)
    for (const auto& node : model.extern_nodes) {
      if (found || parse_op_name(node.target).qualified() != op.qualified()) continue;
      found = true;
      for (const auto& input : node.inputs) {
        const auto space = input.value.find(' ');
        const std::string kind = input.value.substr(0, space);
        const std::string value = space == std::string::npos ? "" : input.value.substr(space + 1);
        const bool identifier = is_identifier(input.name);
        if ((kind == "tensor" || kind == "tensors" || kind == "optional_tensor") && identifier) {
          args.push_back(input.name);
          tensors.push_back("`" + input.name + "`");
        } else if ((kind == "float" || kind == "int") && util::parse_int(value).has_value()) {
          args.push_back(value);
        } else if (kind == "float" && !value.empty() &&
                   value.find_first_not_of("0123456789.e-+") == std::string::npos) {
          args.push_back(value);
        } else if (kind == "bool") {
          args.push_back(value == "true" ? "True" : "False");
        } else if (kind == "none") {
          args.push_back("None");
        } else if (identifier) {
          args.push_back(input.name);  // a symbolic size or a list: the user passes their own value
        }
      }
    }
  // Without a package that calls it, the op's schema in the case's sources names the arguments.
  for (const auto& source : c.sources)
    for (const auto& schema_op : source.ops) {
      if (found || schema_op.schema.empty() ||
          parse_op_name(schema_op.name).qualified() != op.qualified())
        continue;
      found = true;
      for (const auto& arg : schema_op.args) {
        if (!is_identifier(arg.name)) continue;
        args.push_back(arg.name);
        if (arg.type.starts_with("Tensor")) tensors.push_back("`" + arg.name + "`");
      }
    }
  if (!found || args.empty()) args = {"x"}, tensors = {"`x`"};
  if (!tensors.empty())
    what += fmt::format(" ({}: sample tensors of the sizes that failed)", join(tensors));
  const std::string tuple = args.size() == 1 ? args.front() + "," : join(args);
  return {std::move(what),
          fmt::format("torch.library.opcheck({}, ({}))", op.overload_path(), tuple), "python"};
}

namespace {
// The command line of the crashed process, shell-quoted, from the first core that recorded one.
std::string recorded_command_line(const Case& c) {
  for (const auto& core : c.cores) {
    if (core.argv.empty()) continue;
    std::vector<std::string> words;
    for (const auto& arg : core.argv) words.push_back(shell_word(arg));
    return join(words, " ");
  }
  return "";
}
NextStep env_step(std::string what, std::string_view env, const std::string& program,
                  std::string_view which) {
  if (!program.empty()) return {std::move(what), fmt::format("{} {}", env, program), "sh"};
  return {fmt::format("{}: set the variables, then run {} again in the same shell", what, which),
          fmt::format("export {}", env), "sh"};
}
}  // namespace

NextStep rerun_step(const Case& c, std::string what, std::string_view env) {
  return env_step(std::move(what), env, recorded_command_line(c), "the failing program");
}

NextStep repackage_step(const Case& c, std::string what, std::string_view env) {
  // A core is of the program that ran the model; it also exported only when the trace's export call
  // is in the same script.
  std::string program = recorded_command_line(c);
  bool same_script = false;
  for (const auto& trace : c.traces)
    for (const auto& call : trace.exports)
      for (const auto& core : c.cores)
        for (const auto& arg : core.argv)
          same_script = same_script || (!call.call_site.file.empty() && arg == call.call_site.file);
  if (!same_script) program.clear();
  return env_step(std::move(what), env, program, "the script that exports and packages the model");
}

std::string reanalyze_command(const Case& c, std::string_view extra) {
  std::vector<std::string> words = {"aoti-analyze"};
  for (const auto& artifact : c.artifacts)
    if (artifact.analyzed) words.push_back(shell_quote(artifact.path));
  if (!extra.empty()) words.emplace_back(extra);
  return join(words, " ");
}

}  // namespace aoti::checks
