// numerics.nan-inf: where a NaN or Inf first appears. From the asserts TORCHINDUCTOR_NAN_ASSERTS
// compiles in (`At least one NaN in buf0` and the wrapper line of its
// `aoti_torch_check_inf_and_nan` call), or from the printer's values (statistics in a log, `.pt`
// dumps of mode 1): the buffer, the kernel launched just before that wrote it, its inputs and
// whether their own checks passed, and the model code it came from.
#include "checks/numerics/nan_inf.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "checks/support/commands.hpp"
#include "checks/support/contract.hpp"
#include "checks/support/failures.hpp"
#include "checks/support/finding.hpp"
#include "checks/support/kernels.hpp"
#include "torch/numerics.hpp"

namespace aoti::checks {
namespace {
using namespace aoti::model;

constexpr std::string_view k_check_call = "aoti_torch_check_inf_and_nan(";

// `aoti_torch_check_inf_and_nan("buf0", buf0)` -> buf0; "" for another call.
std::string checked_buffer(std::string_view call) {
  const auto at = call.find(k_check_call);
  if (at == std::string_view::npos) return {};
  auto rest = call.substr(at + k_check_call.size());
  if (!rest.starts_with('"')) return {};
  rest.remove_prefix(1);
  return std::string(rest.substr(0, rest.find('"')));
}

// `At least one NaN in buf0` / `At least one INF in buf0`: the kind and the buffer.
std::pair<std::string, std::string> assert_message(std::string_view text) {
  for (std::string_view kind : {"NaN", "INF"}) {
    const std::string needle = fmt::format("At least one {} in ", kind);
    const auto at = text.find(needle);
    if (at == std::string_view::npos) continue;
    auto rest = text.substr(at + needle.size());
    const auto end = rest.find_first_of(" \t\"'");
    return {kind == "NaN" ? "NaN" : "Inf", std::string(rest.substr(0, end))};
  }
  return {};
}

// The wrapper line of the check of `name` between first and last (exclusive), 0 when none.
int check_line_of(const WrapperFacts& w, const std::string& name, int first, int last) {
  const std::string needle = fmt::format("{}\"{}\"", k_check_call, name);
  for (int line = std::max(first, 1); line < last && line <= w.source.line_count(); ++line)
    if (w.source.line(line).find(needle) != std::string_view::npos) return line;
  return 0;
}

// The launch that wrote `buffer` before wrapper line `before`: the last kernel launch passing it.
const KernelCall* producer_of(const WrapperFacts& w, const std::string& buffer, int before) {
  const KernelCall* found = nullptr;
  for (const auto& call : w.kernel_calls) {
    if (call.line >= before) continue;
    const bool passes = std::any_of(call.args.begin(), call.args.end(), [&](const std::string& a) {
      return argument_name(a) == buffer;
    });
    if (passes && (!found || call.line > found->line)) found = &call;
  }
  return found;
}

// The ops of a launch that leave finite inputs for NaN/Inf, with their domains: "aten.log (NaN for
// inputs below 0 and -inf at 0)".
std::vector<std::string> risky_ops(const KernelCall& call) {
  std::vector<std::string> out;
  for (const auto& op : call.aten_ops)
    if (const auto domain = torch::nan_inf_domain(op); !domain.empty())
      out.push_back(fmt::format("{} ({})", op, domain));
  return out;
}

// The user's code each source node of the launch came from, from a trace's graph dump.
void add_model_code_evidence(const Case& c, const KernelCall& call, std::vector<Evidence>& out) {
  std::vector<std::string> seen;
  for (const auto& trace : c.traces)
    for (const auto& graph : trace.graphs)
      for (const auto& node : graph.nodes) {
        if (node.source.empty() || std::find(call.source_nodes.begin(), call.source_nodes.end(),
                                             node.name) == call.source_nodes.end())
          continue;
        if (std::find(seen.begin(), seen.end(), node.source) != seen.end()) continue;
        seen.push_back(node.source);
        out.push_back(fact(
            Location{graph.payload_artifact, "", node.line},
            fmt::format("graph node `{}` ({}) comes from {}", node.name, graph.name, node.source),
            "the model code the launch implements"));
        if (seen.size() >= 3) return;
      }
}

struct Producer {
  const WrapperFacts* w = nullptr;
  const KernelCall* call = nullptr;
  std::vector<std::string> inputs;  // the other tensors the launch reads, as argument_text
  std::vector<int> passed_checks;   // wrapper lines of their checks that ran before the failure
};

Producer find_producer(const WrapperFacts& w, const std::string& buffer, int failed_line) {
  Producer p;
  p.w = &w;
  p.call = producer_of(w, buffer, failed_line);
  if (!p.call) return p;
  const TritonKernel* kernel = find_kernel(w, p.call->kernel);
  for (std::size_t i = 0; i < p.call->args.size(); ++i) {
    const std::string name = argument_name(p.call->args[i]);
    if (name.empty() || name == buffer || is_size_symbol(name)) continue;
    if (kernel && i < kernel->params.size() &&
        (kernel->params[i].starts_with("out_ptr") || kernel->params[i].starts_with("in_out_ptr")))
      continue;
    const bool known = input_index_of(w, name) >= 0 || constant_named(w, name) != nullptr ||
                       name.starts_with("buf");
    if (!known) continue;
    p.inputs.push_back(argument_text(w, name));
    // Its check: after the launch (inputs are checked with the launch's outputs) or, for a buffer
    // an earlier launch wrote, after that one.
    int line = check_line_of(w, name, p.call->line, failed_line);
    if (line == 0)
      if (const KernelCall* earlier = producer_of(w, name, p.call->line))
        line = check_line_of(w, name, earlier->line, p.call->line);
    if (line > 0) p.passed_checks.push_back(line);
  }
  return p;
}

Finding assert_finding(const Case& c, const LogEvent* message, const LogEvent* call_event,
                       const std::string& kind, const std::string& buffer) {
  Finding f = new_finding(NumericsNanInfCheck::k_info, Severity::error, 0.85);
  f.explains_failure = true;
  const std::string what = kind == "NaN" ? "A NaN" : kind == "Inf" ? "An Inf" : "A NaN or Inf";
  f.subject = fmt::format("{} in {}", kind, buffer);
  if (message) {
    f.evidence.push_back(event_evidence(*message, "the assert's message"));
    failures::add_native_path_evidence(c, *message, f.evidence);
  }
  if (call_event) f.evidence.push_back(event_evidence(*call_event, "the check that failed"));

  // The wrapper: the failing check's line, the launch before it that wrote the buffer.
  const LogEvent* anchor = call_event ? call_event : message;
  const ModelFacts* model = anchor ? model_of(c, *anchor) : nullptr;
  if (!model && c.models.size() == 1) model = &c.models.front();
  const WrapperFacts* w = model && model->wrapper ? &*model->wrapper : nullptr;
  int failed_line = call_event ? call_event->source_line : 0;
  if (w && (failed_line <= 0 || checked_buffer(w->source.line(failed_line)) != buffer))
    failed_line = check_line_of(*w, buffer, 1, w->source.line_count() + 1);
  Producer p;
  if (w && failed_line > 0) {
    f.evidence.push_back(quote_wrapper(*w, failed_line, "the check that failed"));
    p = find_producer(*w, buffer, failed_line);
  }
  std::string sentence =
      fmt::format("TORCHINDUCTOR_NAN_ASSERTS' check of `{}`{} found {} in it.", buffer,
                  failed_line > 0 ? fmt::format(" at wrapper line {}", failed_line) : "",
                  kind == "NaN"   ? "a NaN"
                  : kind == "Inf" ? "an Inf"
                                  : "a NaN or Inf");
  if (p.call) {
    f.evidence.push_back(quote_wrapper(
        *w, p.call->line,
        p.call->source_nodes.empty() ? fmt::format("the launch that writes `{}`", buffer)
                                     : fmt::format("the launch that writes `{}`; model code: {}",
                                                   buffer, join(p.call->source_nodes))));
    for (const int line : p.passed_checks)
      f.evidence.push_back(quote_wrapper(
          *w, line, "an input's own check, which ran before the failing one: passed"));
    add_model_code_evidence(c, *p.call, f.evidence);
    f.title =
        fmt::format("{} first appears in `{}`, written by `{}`{}", what, buffer, p.call->kernel,
                    p.call->source_nodes.empty()
                        ? ""
                        : fmt::format(" (model code: {})", join(p.call->source_nodes)));
    sentence += fmt::format(" `{}` is written by `{}`, launched at wrapper line {}", buffer,
                            p.call->kernel, p.call->line);
    if (!p.inputs.empty()) sentence += fmt::format(" from {}", join(p.inputs));
    sentence += ".";
    if (!p.passed_checks.empty() && p.passed_checks.size() == p.inputs.size())
      sentence += fmt::format(
          " The checks of {} ran before the failing one and passed: the kernel made the {} from "
          "finite inputs.",
          p.inputs.size() == 1 ? "that input" : "those inputs", kind);
    if (const auto ops = risky_ops(*p.call); !ops.empty())
      sentence += fmt::format(
          " Of its ops, {} can make one from finite inputs: inferred, the "
          "likely source.",
          join(ops));
  } else {
    f.title = fmt::format("{} first appears in `{}` (TORCHINDUCTOR_NAN_ASSERTS)", what, buffer);
    if (w) sentence += " The wrapper shows no kernel launch that writes it before the check.";
  }
  f.message = sentence;
  f.why =
      "With TORCHINDUCTOR_NAN_ASSERTS the wrapper checks each kernel's inputs and outputs right "
      "after the launch, in order, so the first failing check names the first buffer holding "
      "the value; the kernel that wrote it turned finite inputs into it (or an input already "
      "held it, when its own check is the one that failed).";
  if (p.call)
    f.next_steps.push_back(repackage_step(
        c,
        "re-package printing this kernel's inputs and output (min, max, mean), then run again "
        "with the same input",
        fmt::format("AOT_INDUCTOR_FILTERED_KERNELS_TO_PRINT=\"{}\" "
                    "AOT_INDUCTOR_DEBUG_INTERMEDIATE_VALUE_PRINTER=2",
                    p.call->kernel)));
  if (p.call && w)
    if (const TritonKernel* kernel = find_kernel(*w, p.call->kernel);
        kernel && kernel->source_end > kernel->source_begin)
      f.next_steps.push_back(
          {"read the kernel's code",
           show_wrapper_lines_command(*w, kernel->source_begin, kernel->source_end)});
  return f;
}

// A printed or dumped value that holds NaN or Inf, and which of the two.
std::string bad_value_kind(const PrintedValue& v) {
  if (!v.tensor) return {};
  const auto& t = *v.tensor;
  if (t.nan_count.value_or(0) > 0) return "NaN";
  if (t.inf_count.value_or(0) > 0) return "Inf";
  for (const auto& stat : {t.min, t.max, t.mean})
    if (stat && std::isnan(*stat)) return "NaN";
  for (const auto& stat : {t.min, t.max})
    if (stat && std::isinf(*stat)) return "Inf";
  return {};
}

std::string summary_text(const TensorSummary& t) {
  std::vector<std::string> parts;
  if (t.nan_count) parts.push_back(fmt::format("{} NaN", *t.nan_count));
  if (t.inf_count) parts.push_back(fmt::format("{} Inf", *t.inf_count));
  if (t.numel) parts.push_back(fmt::format("{} elements", *t.numel));
  const auto stat = [](const std::optional<double>& v, const std::string& text) {
    return !text.empty() ? text : v ? fmt::format("{:g}", *v) : std::string("?");
  };
  if (t.min || !t.min_text.empty()) parts.push_back("min " + stat(t.min, t.min_text));
  if (t.max || !t.max_text.empty()) parts.push_back("max " + stat(t.max, t.max_text));
  return join(parts);
}

// From the printer: the first launch after which an argument holds NaN/Inf that it did not hold
// before it (in a log's statistics or mode 1's dumps).
// Whether `arg` is what `kernel` writes: a Triton kernel's `out_ptr`/`in_out_ptr` parameter at
// its launch in the wrapper, or the first argument of an ATen `*_out` shim call. Before the launch
// such a buffer holds memory not yet written, whatever it prints.
bool is_output_of(const Case& c, const std::string& kernel, const std::string& arg) {
  if (kernel.ends_with("_out")) {
    for (const auto& model : c.models)
      if (model.wrapper)
        for (const auto& call : model.wrapper->printer_calls)
          if (call.kernel == kernel && call.phase == PrintPhase::before_launch)
            return call.arg == arg;  // the first value printed before it: the out tensor
    return false;
  }
  for (const auto& model : c.models) {
    if (!model.wrapper) continue;
    const WrapperFacts& w = *model.wrapper;
    const TritonKernel* k = find_kernel(w, kernel);
    const KernelCall* call = k ? launch_of(w, *k) : nullptr;
    if (!call) continue;
    for (std::size_t i = 0; i < call->args.size() && i < k->params.size(); ++i)
      if (argument_name(call->args[i]) == arg)
        return k->params[i].starts_with("out_ptr") || k->params[i].starts_with("in_out_ptr");
  }
  return false;
}

std::optional<Finding> printer_finding(const Case& c, const DebugRunFacts& facts) {
  for (const auto& run : facts.runs)
    for (const auto& after : run.values) {
      const std::string kind = bad_value_kind(after);
      if (kind.empty()) continue;
      // Before a launch, a kernel's output holds memory not yet written: not a finding. Any other
      // argument holding NaN/Inf before a launch already held it: it came from earlier.
      if (after.phase == PrintPhase::before_launch && is_output_of(c, after.kernel, after.arg))
        continue;
      Finding f = new_finding(NumericsNanInfCheck::k_info, Severity::error, 0.8);
      f.explains_failure = true;
      f.subject = fmt::format("{} in {}", kind, after.arg);
      const std::string what = kind == "NaN" ? "A NaN" : "An Inf";
      const ModelFacts* model = c.models.size() == 1 ? &c.models.front() : nullptr;
      if (after.phase != PrintPhase::after_launch) {
        const bool input =
            after.phase == PrintPhase::model_inputs ||
            (model && model->wrapper && input_index_of(*model->wrapper, after.arg) >= 0);
        f.title =
            after.phase == PrintPhase::model_inputs || input
                ? fmt::format("{} is already in model input `{}`", what, after.arg)
                : fmt::format("{} is already in `{}` before `{}`", what, after.arg, after.kernel);
        f.message = fmt::format(
            "The printer shows `{}` holding {} ({}){}.", after.arg, kind,
            summary_text(*after.tensor),
            after.phase == PrintPhase::model_inputs
                ? " among the model's inputs"
                : fmt::format(" before the launch of `{}`, which reads it", after.kernel));
        if (input && model && model->wrapper)
          f.message += fmt::format(" It is {}: the value came in with the input.",
                                   argument_text(*model->wrapper, after.arg));
      } else {
        const auto before = std::find_if(run.values.begin(), run.values.end(), [&](const auto& v) {
          return v.phase == PrintPhase::before_launch && v.kernel == after.kernel &&
                 v.arg == after.arg;
        });
        std::vector<std::string> clean;
        for (const auto& v : run.values)
          if (v.phase == PrintPhase::before_launch && v.kernel == after.kernel &&
              v.arg != after.arg && v.tensor && bad_value_kind(v).empty())
            clean.push_back(fmt::format(
                "{} ({})",
                model && model->wrapper ? argument_text(*model->wrapper, v.arg) : "`" + v.arg + "`",
                summary_text(*v.tensor)));
        f.title = fmt::format("{} first appears in `{}` after `{}`", what, after.arg, after.kernel);
        f.message = fmt::format(
            "After `{}` returned, `{}` holds {} ({}){}.{}", after.kernel, after.arg, kind,
            summary_text(*after.tensor),
            before != run.values.end() && bad_value_kind(*before).empty() &&
                    !is_output_of(c, after.kernel, after.arg)
                ? "; before the launch it held none"
                : "",
            clean.empty() ? ""
                          : fmt::format(" The kernel's other arguments before it held none: {}.",
                                        join(clean)));
        const bool output = is_output_of(c, after.kernel, after.arg);
        if (output)
          f.message += fmt::format(
              " `{}` is the kernel's output: what it held before the launch was memory not yet "
              "written.",
              after.arg);
        if (before != run.values.end() && before->tensor && !output)
          f.evidence.push_back(
              before->header.empty()
                  ? fact(before->where,
                         fmt::format("before the launch: {}", summary_text(*before->tensor)),
                         "the same argument before the launch")
                  : log_quote(before->where, before->header,
                              "the same argument before the launch"));
        if (model && model->wrapper)
          for (const auto& call : model->wrapper->kernel_calls)
            if (call.kernel == after.kernel) {
              f.evidence.push_back(quote_wrapper(
                  *model->wrapper, call.line,
                  call.source_nodes.empty()
                      ? "the launch"
                      : fmt::format("the launch; model code: {}", join(call.source_nodes))));
              if (const auto ops = risky_ops(call); !ops.empty())
                f.message += fmt::format(
                    " Of its ops, {} can make one from finite inputs: inferred, the likely source.",
                    join(ops));
              add_model_code_evidence(c, call, f.evidence);
              break;
            }
        f.next_steps.push_back(repackage_step(
            c, "re-package printing this kernel's arguments, then run again with the same input",
            fmt::format("AOT_INDUCTOR_FILTERED_KERNELS_TO_PRINT=\"{}\" "
                        "AOT_INDUCTOR_DEBUG_INTERMEDIATE_VALUE_PRINTER=2",
                        after.kernel)));
      }
      f.evidence.insert(f.evidence.begin(),
                        after.header.empty()
                            ? fact(after.where, summary_text(*after.tensor),
                                   "the saved tensor, read from its bytes")
                            : log_quote(after.where, after.header, "the printed value"));
      f.why =
          "The printer shows each kernel's arguments before and after its launch, in order: the "
          "first launch after which a value holds NaN or Inf that its inputs did not is where it "
          "was made.";
      return f;
    }
  return std::nullopt;
}

// The next steps for a NaN or Inf seen only in a posted log: find the first op that makes one.
std::vector<NextStep> localize_steps(const Case& c, const std::string& artifact) {
  const std::string script = failures::script_command(c, artifact);
  return {{"find the first operation that makes a NaN or Inf: run the step with anomaly detection "
           "(the backward function that first returns NaN is named)",
           "torch.autograd.set_detect_anomaly(True)", "python"},
          {"with a compiled model, make each kernel check its outputs for NaN and Inf",
           failures::with_env("TORCHINDUCTOR_NAN_ASSERTS=1", script)}};
}

// torch's own statement that a tensor reaching an op held NaN or Inf (torch.multinomial's check of
// its probabilities, anomaly mode, clip_grad_norm_): the op that noticed, not the one that made it.
Finding from_exception(const Case& c, const LogEvent& e) {
  Finding f = new_finding(NumericsNanInfCheck::k_info, Severity::error, 0.7);
  f.explains_failure = true;
  // The call that raised it: the innermost frame's code line (`torch.multinomial(probs,`).
  const LogFrame* raised = nullptr;
  for (auto frame = e.frames.rbegin(); frame != e.frames.rend(); ++frame)
    if (!frame->native && !frame->code.empty()) {
      raised = &*frame;
      break;
    }
  f.subject = "non-finite values " + e.subject;
  f.title = fmt::format("A NaN or Inf reached an op that checks its input: {}",
                        code_span(e.subject + ": " + e.value, 140));
  f.message = fmt::format(
      "torch reported that a tensor held NaN or Inf where it must be finite: `{}`{}. The op that "
      "noticed is not the one that made the values: an earlier computation (an overflow in a "
      "low-precision dtype, a division by a zero scale or temperature, a log or sqrt outside its "
      "domain) did.",
      cut(e.value, 300),
      raised ? fmt::format(", raised at {}:{} (`{}`)", raised->file, raised->line, raised->code)
             : "");
  f.why =
      "NaN and Inf spread through every op they touch; the first op whose inputs were finite and "
      "whose output is not is the cause. Low-precision dtypes (float16, bfloat16, fp8) overflow "
      "to Inf far sooner than float32.";
  f.evidence.push_back(event_evidence(e, "torch's statement that the values are not finite"));
  if (raised && raised != failures::user_frame(e))
    f.evidence.push_back(failures::code_evidence(e, *raised, "the call that checked them"));
  failures::add_user_frame_evidence(e, f.evidence);
  f.next_steps = localize_steps(c, e.where.artifact);
  f.chain = {"NaN/Inf made earlier", raised ? raised->function : e.subject, "check failed"};
  return f;
}

// Values a program printed as NaN or Inf (a training loop's metrics): the first line that shows
// them, and how often they recur.
Finding from_printed(const Case& c, const LogEvent& e, int more_lines) {
  Finding f = new_finding(NumericsNanInfCheck::k_info, Severity::error, 0.6);
  f.explains_failure = true;
  std::string names = "`";
  for (const char ch : e.subject) names += ch == ',' ? std::string("`, `") : std::string(1, ch);
  names += "`";
  f.subject = "printed non-finite " + e.subject;
  f.title = fmt::format("The run printed {} as {}", names, e.value);
  f.message = fmt::format(
      "Line {} of the log prints {} as `{}`{}. A value that is NaN or Inf from its first print "
      "on was made so by the computation before it: the forward pass, the loss or the "
      "optimizer's update.",
      e.where.line, names, e.value,
      more_lines > 0 ? fmt::format(", and {} more lines print them so", more_lines) : "");
  f.why =
      "NaN and Inf spread through every op they touch; the first op whose inputs were finite and "
      "whose output is not is the cause (an overflow in a low-precision dtype, a division by a "
      "zero scale, a log or sqrt outside its domain).";
  f.evidence.push_back(event_evidence(e, "the first line that prints them"));
  f.next_steps = localize_steps(c, e.where.artifact);
  f.chain = {"NaN/Inf made", e.subject, "printed"};
  return f;
}

}  // namespace

std::vector<Finding> NumericsNanInfCheck::run(const Case& c) const {
  std::vector<Finding> out;
  // The asserts: the shim's message and the failed call, paired by buffer.
  std::vector<std::string> seen;
  for (const auto& e : c.log_events) {
    std::string kind, buffer;
    const LogEvent* message = nullptr;
    const LogEvent* call = nullptr;
    if (e.kind == LogEventKind::runtime_error) {
      std::tie(kind, buffer) = assert_message(e.value.empty() ? e.text : e.value);
      message = &e;
    } else if (e.kind == LogEventKind::api_call_failed) {
      buffer = checked_buffer(e.subject);
      call = &e;
    }
    if (buffer.empty()) continue;
    const std::string key = e.where.artifact + "\x1f" + buffer;
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
    seen.push_back(key);
    // The other half, in the same log.
    for (const auto& other : c.log_events) {
      if (other.where.artifact != e.where.artifact) continue;
      if (!call && other.kind == LogEventKind::api_call_failed &&
          checked_buffer(other.subject) == buffer)
        call = &other;
      if (!message && other.kind == LogEventKind::runtime_error) {
        const auto [k, b] = assert_message(other.value.empty() ? other.text : other.value);
        if (b == buffer) {
          message = &other;
          kind = k;
        }
      }
    }
    out.push_back(assert_finding(c, message, call, kind.empty() ? "NaN or Inf" : kind, buffer));
  }
  // torch's own statements and printed values, in logs the asserts did not already explain.
  for (const auto& artifact : failures::log_artifacts(c)) {
    const bool explained = std::any_of(out.begin(), out.end(), [&](const Finding& f) {
      return !f.evidence.empty() && f.evidence.front().where.artifact == artifact;
    });
    if (explained) continue;
    for (const LogEvent* e : failures::events_of(c, artifact)) {
      if (e->kind == LogEventKind::python_exception && e->problem == "non-finite values") {
        out.push_back(from_exception(c, *e));
        break;
      }
      // NaN is never a setting; Inf is one (`max_norm=inf`) unless it recurs.
      const bool nan =
          e->value.find("nan") != std::string::npos || e->value.find("NaN") != std::string::npos;
      if (e->kind != LogEventKind::printed_nonfinite) continue;
      int more_lines = e->repeats - 1;
      for (const LogEvent* other : failures::events_of(c, artifact))
        if (other != e && other->kind == LogEventKind::printed_nonfinite &&
            other->subject == e->subject)
          more_lines += other->repeats;
      if (nan || more_lines > 0) {
        out.push_back(from_printed(c, *e, more_lines));
        break;
      }
    }
  }
  // The printer's values, for runs the asserts did not already explain (one folder, one run).
  const std::size_t asserts = out.size();
  for (const auto& facts : c.debug_runs) {
    const bool explained =
        std::any_of(out.begin(), out.begin() + static_cast<long>(asserts), [&](const Finding& f) {
          return !f.evidence.empty() && same_run(f.evidence.front().where.artifact, facts.artifact);
        });
    if (explained) continue;
    if (auto f = printer_finding(c, facts)) out.push_back(std::move(*f));
  }
  return out;
}

}  // namespace aoti::checks
