// Next steps that run as printed: shell commands, re-runs with variables set, op names in every
// spelling torch uses, and opcheck calls with the op's real arguments.
#pragma once

#include <string>
#include <string_view>

#include "model/case.hpp"
#include "model/finding.hpp"

namespace aoti::checks {

// Running the failed program again with `env` ("A=1 B=2") set: the program's own command line when
// a core recorded it, else `export A=1 B=2` with `what` telling to run it again in that shell.
model::NextStep rerun_step(const model::Case& c, std::string what, std::string_view env);

// The same for the program that exported and packaged the model (its command line is known only
// when it is the one a core recorded; otherwise the `export` form).
model::NextStep repackage_step(const model::Case& c, std::string what, std::string_view env);

// `aoti-analyze` on the case's own inputs plus `extra` (already shell-quoted), as the user gave
// them.
std::string reanalyze_command(const model::Case& c, std::string_view extra);

// `unzip -p PACKAGE ENTRY | sed -n 'A,Bp'`: shows lines of a file inside a package.
std::string show_lines_command(const model::Location& where, int first, int last);

// The same for wrapper lines first..last, wherever the wrapper's text is (package, file, trace).
std::string show_wrapper_lines_command(const model::WrapperFacts& w, int first, int last);

std::string shell_quote(std::string_view text);  // 'it'\''s' for the shell

std::string shell_word(
    std::string_view text);  // quoted only when the shell would split or expand it

// An op as torch spells it in each place, from any of "ns::op", "ns::op.overload", "ns.op.default"
// or "torch.ops.ns.op.default": register_fake("ns::op") and torch.ops.ns.op.default.
struct OpName {
  std::string ns, name, overload = "default";
  bool valid() const { return !ns.empty() && !name.empty(); }
  std::string qualified() const { return ns + "::" + name; }  // "ns::op"
  std::string overload_path() const {
    return "torch.ops." + ns + "." + name + "." + overload;
  }  // torch.ops.ns.op.default
};

OpName parse_op_name(std::string_view text);

// `torch.library.opcheck(torch.ops.ns.op.default, (x, 0.5))` with the op's real arguments (the
// extern node's schema names for tensors, its literal values for scalars) when a package calls it.
model::NextStep opcheck_step(const model::Case& c, std::string_view op, std::string what);

}  // namespace aoti::checks
