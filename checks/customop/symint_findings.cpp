#include "checks/customop/symint_findings.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "checks/customop/op_schemas.hpp"
#include "checks/customop/symint_patterns.hpp"
#include "checks/support/commands.hpp"
#include "checks/support/finding.hpp"

namespace aoti::checks::symint {
namespace {

using namespace aoti::model;

// A suggestion is either code (`x.sym_size(0)`) or a sentence ("derive each size from ..."): code
// goes in a code span, so a reader never takes one for the other.
std::string as_code_or_prose(const std::string& suggestion) {
  const std::string first_word = suggestion.substr(0, suggestion.find(' '));
  return first_word.find_first_of("(:.{[_") != std::string::npos ? "`" + suggestion + "`"
                                                                 : suggestion;
}

// The source line of a pattern, quoted when it is a line of the source given as input.
Evidence source_quote(const SourceFacts& source, const SourcePattern& p, std::string note) {
  const bool own_file = p.file.empty() || p.file == source.artifact;
  Evidence evidence{Location{own_file ? source.artifact : p.file, "", p.line}, p.excerpt,
                    std::move(note)};
  if (own_file && p.line > 0) evidence.kind = EvidenceKind::quote;
  return evidence;
}

// The user line of a specialization that calls the op, from the trace.
const TraceFrame* specializing_frame(const Case& c, const std::string& op) {
  const std::optional<std::string> call = torch_ops_call(op);
  if (!call) return nullptr;
  for (const auto& trace : c.traces)
    for (const auto& spec : trace.specializations)
      for (const auto& frame : spec.user_frames)
        if (frame.code.find(*call) != std::string::npos) return &frame;
  return nullptr;
}

Finding report(const Case& c, const SourceFacts& source, const std::string& function,
               const std::string& op, const std::vector<const SourcePattern*>& patterns,
               std::string_view label, const CheckInfo& check) {
  bool called = false;
  for (const auto& model : c.models)
    for (const auto& node : model.extern_nodes)
      called = called || (!op.empty() && op_key(node.target) == op_key(op));
  const TraceFrame* frame = op.empty() ? nullptr : specializing_frame(c, op_key(op));
  const bool export_error =
      std::any_of(c.log_events.begin(), c.log_events.end(),
                  [](const LogEvent& e) { return e.kind == LogEventKind::export_specialized; });
  // The trace saw this op's call specialize a dim, and the export failed or the package is static:
  // this source line is the cause, not just a risk.
  const bool explains = frame != nullptr && (export_error || called);

  // With a package in the case, an op it never calls cannot explain anything about it: a note,
  // not a warning that competes with the real findings.
  const bool package_known = std::any_of(c.models.begin(), c.models.end(),
                                         [](const ModelFacts& m) { return m.so || m.wrapper; });
  Finding f = new_finding(check,
                          explains || called ? Severity::error
                          : package_known    ? Severity::note
                                             : Severity::warning,
                          explains ? 0.97
                          : called ? 0.85
                                   : 0.7);
  f.explains_failure = explains;
  f.subject = fmt::format("{} {} {}", source.artifact, function, op);
  // Patterns come ordered by place; a line with two (`TORCH_CHECK(x.size(0) == n)`: C1 and C6) is
  // one line of the title and message, and one quote with both notes.
  std::vector<std::string> lines;
  std::vector<std::vector<const SourcePattern*>> by_line;
  for (const auto* p : patterns) {
    if (by_line.empty() || by_line.back().front()->line != p->line) {
      by_line.push_back({});
      lines.push_back(std::to_string(p->line));
    }
    by_line.back().push_back(p);
  }
  // Patterns outside any kernel are a schema's (C5): the title names the op's schema.
  const bool schema_only = function.empty();
  f.title = schema_only ? fmt::format("The schema of `{}` types a size as int ({} {})", op,
                                      lines.size() == 1 ? "line" : "lines", join(lines))
                        : fmt::format("{} `{}`{} is not SymInt-aware ({} {})", label, function,
                                      op.empty() ? "" : fmt::format(" of `{}`", op),
                                      lines.size() == 1 ? "line" : "lines", join(lines));
  std::vector<std::string> parts;
  for (const auto& same_line : by_line) {
    std::vector<std::string> ids;
    for (const auto* p : same_line)
      if (std::find(ids.begin(), ids.end(), p->id) == ids.end()) ids.push_back(p->id);
    parts.push_back(fmt::format("line {} `{}` ({})", same_line.front()->line,
                                same_line.front()->excerpt, join(ids)));
  }
  f.message = fmt::format(
      "{} concrete sizes where export passes symbolic ones: {}{}{}",
      schema_only ? fmt::format("The schema of `{}` asks for", op)
                  : fmt::format("`{}` uses", function),
      join(parts, "; "),
      called          ? fmt::format(". The package calls `{}` through the proxy executor", op)
      : package_known ? fmt::format(". No package in this case calls `{}`: a latent problem for "
                                    "the next export that uses it",
                                    op.empty() ? function : op)
                      : "",
      frame ? fmt::format(", and the trace shows its call at {}:{} specializing a dynamic dim",
                          frame->file, frame->line)
            : "");
  if (!f.message.ends_with(".")) f.message += ".";
  f.why =
      "Under export every size is a symbol; a kernel that reads a concrete size forces a guard "
      "that turns the "
      "dim into a constant (\"specialized it to be a constant\"), or fails outright with symbolic "
      "sizes.";
  std::vector<PatternAdvice> advice;
  for (const auto* p : patterns) advice.push_back(advice_for(*p, source.language));
  std::size_t next = 0;
  for (const auto& same_line : by_line) {
    std::vector<std::string> notes;
    for (const auto* p : same_line) {
      notes.push_back(fmt::format("{} ({}); fix: {}", advice[next].message, p->id,
                                  as_code_or_prose(advice[next].suggestion)));
      ++next;
    }
    f.evidence.push_back(source_quote(source, *same_line.front(), join(notes, "; ")));
  }
  // The schema a parameter was held against (C3/C4), which may be in another file.
  const SourceFacts* schema_source = nullptr;
  const bool against_schema = std::any_of(patterns.begin(), patterns.end(), [](const auto* p) {
    return p->form == PatternForm::int_parameter && !p->schema_type.empty();
  });
  if (const SourceOp* schema = against_schema ? find_schema(c, op, &schema_source) : nullptr)
    f.evidence.push_back(Evidence{Location{schema_source->artifact, "", schema->line},
                                  fmt::format("{}: {}", schema->name, schema->schema),
                                  "the op's schema, which the parameters above are bound to"});
  if (frame)
    f.evidence.push_back(Evidence{Location{frame->file, "", frame->line}, frame->code,
                                  "the call the trace saw specialize a dim"});
  for (const auto& model : c.models)
    for (const auto& node : model.extern_nodes)
      if (op_key(node.target) == op_key(op))
        f.evidence.push_back(
            Evidence{model.extern_nodes_where, node.target, "the package runs this op"});

  // The fix as comments of the source's own language, so the block can be pasted beside the kernel.
  const bool python = source.language == "python";
  const std::string comment = python ? "#" : "//";
  std::string fix;
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    if (i == 0 || patterns[i]->line != patterns[i - 1]->line)
      fix += fmt::format("{}{} line {}: {}", fix.empty() ? "" : "\n", comment, patterns[i]->line,
                         patterns[i]->excerpt);
    fix += fmt::format("\n{}   -> {}", comment, advice[i].suggestion);
  }
  f.next_steps = {
      {"rewrite the kernel with the SymInt forms", fix, python ? "python" : "cpp"},
      {"re-export with the dim dynamic; export must no longer specialize it",
       "ep = torch.export.export(model, args, dynamic_shapes=dynamic_shapes)", "python"}};
  if (!op.empty()) f.next_steps.push_back(opcheck_step(c, op, "check the op at several sizes"));
  if (frame)
    f.chain = {"dynamic dim", frame->code.substr(0, 60),
               fmt::format("{} line {}", function, lines.front()), "dim specialized"};
  return f;
}

}  // namespace

std::vector<Finding> kernel_findings(const Case& c, const CheckInfo& check,
                                     const KernelFamily& family) {
  std::vector<Finding> out;
  for (const auto& source : c.sources) {
    const std::vector<SourcePattern> signature =
        family.pattern_prefix == 'C' ? signature_patterns(c, source) : std::vector<SourcePattern>{};
    std::map<std::pair<std::string, std::string>, std::vector<const SourcePattern*>> by_function;
    for (const auto& p : signature) by_function[{p.function, p.op}].push_back(&p);
    for (const auto& p : source.violations)
      if (!p.id.empty() && p.id[0] == family.pattern_prefix && !concrete_by_schema(c, source, p) &&
          holds_by_schema(c, p))
        by_function[{p.function, p.op}].push_back(&p);
    for (auto& [key, patterns] : by_function) {
      std::sort(patterns.begin(), patterns.end(), [](const auto* a, const auto* b) {
        return std::tie(a->line, a->column, a->id) < std::tie(b->line, b->column, b->id);
      });
      out.push_back(report(c, source, key.first, key.second, patterns, family.label, check));
    }
  }
  return out;
}

std::string op_key(std::string op) {
  if (op.starts_with("torch.ops.")) {
    op = op.substr(10);
    if (auto dot = op.find('.'); dot != std::string::npos) op.replace(dot, 1, "::");
  }
  if (auto dot = op.find('.'); dot != std::string::npos) op.resize(dot);
  return op;
}

std::optional<std::string> torch_ops_call(const std::string& op) {
  const std::size_t colons = op.find("::");
  if (colons == std::string::npos) return std::nullopt;
  return "torch.ops." + op.substr(0, colons) + "." + op.substr(colons + 2);
}

}  // namespace aoti::checks::symint
