// shape.dim-specialized: a dim marked dynamic that export or compile turned into a constant, with
// the user frame that did it (from the trace) and the custom ops to suspect.
#include "checks/shape/dim_specialized.hpp"

#include <algorithm>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "checks/support/commands.hpp"
#include "checks/support/failures.hpp"
#include "checks/support/finding.hpp"

namespace aoti::checks {
namespace {
using namespace aoti::model;

// One specialization as the artifacts tell it: the export error in a log, the trace's record of
// the guard (with its user frame), or both.
struct Specialized {
  const LogEvent* log = nullptr;
  const TraceSpecialization* trace = nullptr;
  const TraceFacts* trace_facts = nullptr;
  bool export_failed = false;  // the trace's export with this specialization was never compiled
};

std::string frame_location(const TraceFrame& frame) {
  return fmt::format("{}:{}", frame.file, frame.line);
}

bool export_failed(const TraceFacts& trace, const TraceSpecialization& spec) {
  for (const auto& call : trace.exports)
    for (const auto& specialized : call.specialized)
      if (specialized == spec.symbol + "=" + spec.value) return !call.compiled;
  return false;
}

Finding report(const Case& c, const Specialized& s) {
  const std::string dim = s.log ? s.log->subject : s.trace->symbol;
  const std::string value = s.log ? s.log->value : s.trace->value;
  Finding f = new_finding(ShapeDimSpecializedCheck::k_info,
                          s.export_failed ? Severity::error : Severity::warning,
                          s.export_failed ? 0.9 : 0.75);
  f.explains_failure = s.export_failed;
  f.subject = "dim " + dim;
  const TraceFrame* frame =
      s.trace && !s.trace->user_frames.empty() ? &s.trace->user_frames.back() : nullptr;
  f.title = fmt::format("Dynamic dim `{}` was specialized to the constant {} {}", dim, value,
                        s.export_failed ? "during export" : "during export (silently)");
  f.message = fmt::format(
      "`{}`{} was marked dynamic, but tracing the model produced a guard that fixes it to {}{}{}.",
      dim,
      s.trace && !s.trace->sources.empty()
          ? fmt::format(" ({}, symbol `{}`)", s.trace->sources.front(), s.trace->symbol)
          : "",
      value, frame ? fmt::format(", at {}: `{}`", frame_location(*frame), frame->code) : "",
      s.export_failed ? ", so export refused the dynamic shape"
                      : "; the package was compiled for that size only");
  f.why =
      "A package exported this way runs only at that size: other sizes are refused by the input "
      "checks, "
      "or, with checks off, crash or compute garbage. The usual culprit is code that reads a "
      "concrete "
      "size — `x.size(0)` in a C++ meta kernel, `int(x.shape[0])` in a Python fake kernel, a "
      "branch on a size.";
  if (s.log) {
    f.evidence.push_back(event_evidence(*s.log, "the export error"));
    // The exception's own lines that state it for this dim (`- Not all values of batch = ...
    // inferred to be a constant (1).`).
    const std::size_t quoted = f.evidence.size();
    for (const auto& e : c.log_events)
      if (e.kind == LogEventKind::python_exception && e.where.artifact == s.log->where.artifact &&
          e.where.line == s.log->where.line)
        for (std::size_t i = 0; i < e.detail.size(); ++i)
          if (e.detail[i].find("Not all values of " + dim + " ") != std::string::npos ||
              e.detail[i].find("You marked " + dim + " ") != std::string::npos) {
            const auto start = e.detail[i].find_first_not_of(' ');
            f.evidence.push_back(
                failures::line_evidence(e, e.where.line + 1 + static_cast<int>(i),
                                        e.detail[i].substr(start == std::string::npos ? 0 : start),
                                        "why export refused the dynamic dim"));
            break;
          }
    // Else the line the scanner read the constant from (an unnamed dim's `Not all values of
    // RelaxedUnspecConstraint(L['x'].size()[0]) are valid because ...`).
    if (f.evidence.size() == quoted && s.log->value_line > 0)
      f.evidence.push_back(failures::line_evidence(*s.log, s.log->value_line, s.log->value_text,
                                                   "why export refused the dynamic dim"));
  }
  if (s.trace) {
    f.evidence.push_back(
        Evidence{Location{s.trace->where.artifact, "", s.trace->where.line},
                 fmt::format("{} -> {} ({})", s.trace->symbol, value, s.trace->reason),
                 "the specialization, as the trace recorded it"});
    if (frame)
      f.evidence.push_back(
          Evidence{Location{frame->file, "", frame->line}, frame->code,
                   fmt::format("the user line that specialized `{}` ({})", dim,
                               frame->function.empty() ? "user code" : "in " + frame->function)});
  }

  std::vector<std::string> ops;
  // The package the error was tied to, or every package when it could not be.
  std::vector<const ModelFacts*> models;
  if (const ModelFacts* tied = s.log ? model_of(c, *s.log) : nullptr)
    models.push_back(tied);
  else if (s.trace_facts && s.trace_facts->model)
    models.push_back(&c.models[*s.trace_facts->model]);
  else
    for (const auto& model : c.models) models.push_back(&model);
  for (const ModelFacts* model_ptr : models) {
    const ModelFacts& model = *model_ptr;
    if (model.wrapper)
      for (const auto& check : model.wrapper->input_checks)
        if (check.kind == InputCheckKind::dim_equal && std::to_string(check.value) == value)
          f.evidence.push_back(
              quote_wrapper(*model.wrapper, check.line,
                            fmt::format("the package is static in dim {} of `{}` (= {})", check.dim,
                                        check.input_name, check.value)));
    for (const auto& node : model.extern_nodes) {
      ops.push_back(node.target);
      f.evidence.push_back(Evidence{
          model.extern_nodes_where, node.target,
          "a custom op the package calls: its meta / fake kernel may read concrete sizes"});
    }
  }
  f.chain = {fmt::format("`{}` marked dynamic", dim)};
  if (frame) f.chain.push_back(frame->code.substr(0, 60));
  f.chain.push_back(fmt::format("guard {} == {}", s.trace ? s.trace->symbol : dim, value));
  f.chain.push_back(s.export_failed ? "export refused" : "static package");
  f.next_steps = {
      rerun_step(c, "print the guard and the user line that specialized it",
                 "TORCH_LOGS=\"+dynamic\""),
      {"list every specialization with its frame: call `torch.export.draft_export` where you call "
       "`export`",
       "ep = torch.export.draft_export(model, args, dynamic_shapes=dynamic_shapes)", "python"}};
  for (const auto& op : ops)
    f.next_steps.push_back(
        {fmt::format(
             "make the meta / fake kernel of `{}` SymInt-aware: `x.sym_size(0)` instead of "
             "`x.size(0)`, "
             "`at::empty_symint` instead of `at::empty` (C++), no `int(...)` on sizes (Python); "
             "then "
             "give its sources (OP_SOURCES: the folder of its .cpp / .py files) to the analyzer",
             op),
         reanalyze_command(c, "\"$OP_SOURCES\"")});
  return f;
}

// `where {'s5': "L['args'][0][0]['dht_table'].size()[0]", ...}` (draft_export's report): each
// symbol with the input dim it stands for.
std::vector<std::pair<std::string, std::string>> guard_sources(std::string_view where) {
  std::vector<std::pair<std::string, std::string>> out;
  for (std::size_t at = where.find('\''); at != std::string_view::npos && out.size() < 8;) {
    const auto close = where.find('\'', at + 1);
    const auto open = where.find('"', close);
    const auto end = open == std::string_view::npos ? open : where.find('"', open + 1);
    if (close == std::string_view::npos || end == std::string_view::npos) break;
    out.emplace_back(where.substr(at + 1, close - at - 1), where.substr(open + 1, end - open - 1));
    at = where.find('\'', where.find_first_of(",}", end));
  }
  return out;
}

// The input a source names, as the user called it: `L['args'][0][0]['dht_table'].size()[0]` ->
// "dht_table"; "" when the source names none.
std::string input_of(std::string_view source) {
  const auto size = source.find(".size()");
  const auto head = source.substr(0, size);
  const auto close = head.rfind("']");
  if (size == std::string_view::npos || close == std::string_view::npos) return "";
  const auto open = head.rfind("['", close);
  return open == std::string_view::npos ? "" : std::string(head.substr(open + 2, close - open - 2));
}

// draft_export's `Guard Added.` item whose guard ties dims together or to a multiple of a constant
// (`Eq(Mod(s21*s5*s89, 2560), 0)`, from a reshape): a dim under such a guard cannot take every
// value, so a named Dim fails and Dim.AUTO leaves it static.
Finding report_guard(const Case& c, const LogEvent& e) {
  Finding f = new_finding(ShapeDimSpecializedCheck::k_info, Severity::warning, 0.7);
  f.explains_failure = true;
  const auto sources = guard_sources(e.value);
  std::vector<std::string> named, inputs;
  for (const auto& [symbol, source] : sources) {
    named.push_back(fmt::format("`{}` = `{}`", symbol, source));
    if (const auto input = input_of(source);
        !input.empty() && std::find(inputs.begin(), inputs.end(), input) == inputs.end())
      inputs.push_back(input);
  }
  const LogFrame* frame = failures::user_frame(e);
  f.subject = "guard " + e.subject;
  f.title = fmt::format("Export added the guard `{}` on the dims of {}", cut(e.subject, 100),
                        inputs.empty() ? "the inputs" : "`" + join(inputs, "`, `") + "`");
  f.message = fmt::format(
      "draft_export reports that tracing added the guard `{}`{}{}. A dim under a guard that ties "
      "it to other dims or to a multiple of a constant cannot take every size: a named Dim for it "
      "fails export, and Dim.AUTO leaves it static (specialized) without saying so.",
      e.subject, named.empty() ? "" : fmt::format(" ({})", join(named, ", ")),
      failures::at_frame(frame));
  f.why =
      "Code that combines or reshapes dims (`reshape([batch, -1])`, a view over a product of "
      "dims) makes export record what must hold for it to be valid; dims that hold only at some "
      "sizes become constants or violate their Dim.";
  f.evidence.push_back(event_evidence(e, "the guard draft_export reports"));
  failures::add_user_frame_evidence(e, f.evidence);
  f.next_steps = {
      rerun_step(c, "print each guard with the user line that added it", "TORCH_LOGS=\"+dynamic\""),
      {"see the dims export could not keep dynamic, with a fix for each",
       "ep = torch.export.draft_export(model, args, dynamic_shapes=dynamic_shapes)", "python"}};
  f.chain = {"guard " + cut(e.subject, 40),
             frame ? fmt::format("{}:{}", frame->file, frame->line) : "traced code",
             "dim not dynamic"};
  return f;
}

}  // namespace

std::vector<Finding> ShapeDimSpecializedCheck::run(const Case& c) const {
  std::vector<Specialized> all;
  std::vector<Finding> out;
  for (const auto& e : c.log_events)
    if (e.kind == LogEventKind::export_specialized && e.problem == "guard added")
      out.push_back(report_guard(c, e));
    else if (e.kind == LogEventKind::export_specialized)
      all.push_back({&e, nullptr, nullptr, true});
  for (const auto& trace : c.traces)
    for (const auto& spec : trace.specializations) {
      const bool failed = export_failed(trace, spec);
      // The log names the dim ("batch"), the trace its symbol ("s77"): the value ties them.
      const auto same = std::find_if(all.begin(), all.end(), [&](const Specialized& s) {
        return s.log && !s.trace && s.log->value == spec.value;
      });
      if (same != all.end())
        same->trace = &spec, same->trace_facts = &trace;
      else
        all.push_back({nullptr, &spec, &trace, failed});
    }
  for (const auto& s : all) out.push_back(report(c, s));
  return out;
}

}  // namespace aoti::checks
