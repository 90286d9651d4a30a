// triton.index-out-of-bounds: `index out of bounds: 0 <= tmpN < X` traced from the assert text to the
// kernel, its launch, the wrapper symbol or constant behind the bound, and the input the index came from.
#include <algorithm>
#include <cctype>
#include <set>

#include <fmt/format.h>

#include "checks/checks.hpp"
#include "checks/support.hpp"

namespace aoti::checks {
namespace {
using namespace aoti::core;

// The `tmpN` names an expression mentions, in order.
std::vector<std::string> temporaries_in(std::string_view expr) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i + 3 < expr.size(); ++i) {
    if (expr.compare(i, 3, "tmp") != 0 || (i > 0 && (std::isalnum(static_cast<unsigned char>(expr[i - 1])) || expr[i - 1] == '_')))
      continue;
    std::size_t end = i + 3;
    while (end < expr.size() && std::isdigit(static_cast<unsigned char>(expr[end]))) ++end;
    if (end > i + 3) out.emplace_back(expr.substr(i, end - i));
    i = end;
  }
  return out;
}

bool mentions(std::string_view expr, std::string_view name) {
  for (std::size_t at = expr.find(name); at != std::string_view::npos; at = expr.find(name, at + 1)) {
    const std::size_t end = at + name.size();
    const bool left_ok = at == 0 || !(std::isalnum(static_cast<unsigned char>(expr[at - 1])) || expr[at - 1] == '_');
    const bool right_ok = end >= expr.size() || !(std::isalnum(static_cast<unsigned char>(expr[end])) || expr[end] == '_');
    if (left_ok && right_ok) return true;
  }
  return false;
}

// The loads the index value is computed from: follow tmp assignments back to tl.load.
std::vector<const TritonLoad*> index_sources(const TritonKernel& kernel, const std::string& index_var) {
  std::vector<const TritonLoad*> out;
  std::set<std::string> seen;
  std::vector<std::string> work{index_var};
  while (!work.empty() && seen.size() < 256) {
    const std::string var = work.back();
    work.pop_back();
    if (!seen.insert(var).second) continue;
    const auto load = std::find_if(kernel.loads.begin(), kernel.loads.end(), [&](const TritonLoad& l) { return l.var == var; });
    if (load != kernel.loads.end()) {
      out.push_back(&*load);
      continue;
    }
    if (auto it = kernel.assignments.find(var); it != kernel.assignments.end())
      for (auto& t : temporaries_in(it->second)) work.push_back(t);
  }
  return out;
}

// The argument a kernel parameter received at its launch.
std::string argument_for(const TritonKernel& kernel, const KernelCall& call, std::string_view param) {
  const auto it = std::find(kernel.params.begin(), kernel.params.end(), param);
  if (it == kernel.params.end()) return "";
  const auto position = static_cast<std::size_t>(it - kernel.params.begin());
  return position < call.args.size() ? call.args[position] : "";
}

class IndexOutOfBounds final : public BasicCheck {
 public:
  IndexOutOfBounds()
      : BasicCheck("triton.index-out-of-bounds",
                   "A Triton device assert `index out of bounds`, traced to kernel, bound and input") {}

  std::vector<Finding> run(const Case& c) const override {
    std::vector<Finding> out;
    for (const auto& e : c.log_events) {
      if (e.kind != LogEventKind::triton_assert) continue;
      const ModelFacts* model = model_of(c, e);
      const TritonKernel* kernel = nullptr;
      const TritonAssert* assertion = nullptr;
      if (model && model->wrapper)
        for (const auto& k : model->wrapper->kernels)
          for (const auto& a : k.asserts)
            if (a.message == e.subject && !kernel) kernel = &k, assertion = &a;
      out.push_back(kernel ? traced(c, e, *model, *kernel, *assertion) : untraced(c, e));
    }
    return out;
  }

 private:
  Finding traced(const Case& c, const LogEvent& e, const ModelFacts& model, const TritonKernel& kernel,
                 const TritonAssert& assertion) const {
    const WrapperFacts& w = *model.wrapper;
    Finding f = new_finding(Severity::error, 0.95);
    f.explains_failure = true;
    f.subject = fmt::format("kernel {} {}", kernel.name, assertion.message);

    const KernelCall* call = nullptr;
    for (const auto& k : w.kernel_calls)
      if (k.kernel == kernel.name) call = &k;

    // Where the index values come from.
    std::string index_from;
    std::vector<Evidence> evidence;
    evidence.push_back(event_evidence(e, "the device assert that fired"));
    evidence.push_back(quote_wrapper(w, assertion.line, fmt::format("the only assert with this text: it is in kernel `{}`", kernel.name)));
    std::string index_input;
    for (const TritonLoad* load : index_sources(kernel, assertion.index_var)) {
      const std::string arg = call ? argument_for(kernel, *call, load->pointer) : "";
      const int input = arg.empty() ? -1 : input_index_of(w, arg);
      evidence.push_back(quote_wrapper(w, load->line,
                                  fmt::format("`{}` {} `{}`{}", assertion.index_var,
                                              load->var == assertion.index_var
                                                  ? "is loaded from"
                                                  : fmt::format("is computed from `{}`, loaded from", load->var),
                                              load->pointer,
                                              arg.empty() ? ""
                                                          : fmt::format(", which the launch binds to `{}`{}", arg,
                                                                        input >= 0 ? fmt::format(" (model input {})", input)
                                                                                   : ""))));
      if (input >= 0 && index_input.empty()) {
        index_input = arg;
        index_from = fmt::format("the values of model input {} (`{}`)", input, arg);
      } else if (index_from.empty() && !arg.empty()) {
        index_from = fmt::format("the values of `{}`", arg);
      }
    }

    // What the bound is.
    std::string bound_text;
    if (auto literal = integer_literal(assertion.bound)) {
      bound_text = fmt::format("the literal {} (a size fixed at compile time)", *literal);
      // The index is used to address a table: the table's dims say which one the bound is.
      for (const auto& load : kernel.loads) {
        if (!mentions(load.offset, assertion.index_var)) continue;
        const std::string arg = call ? argument_for(kernel, *call, load.pointer) : "";
        for (const auto& constant : w.constants) {
          if (constant.name != arg) continue;
          const auto dim = std::find(constant.shape.begin(), constant.shape.end(), *literal);
          if (dim == constant.shape.end()) continue;
          const std::string fqn = constant.original_fqn.empty() ? constant.name : constant.original_fqn;
          bound_text = fmt::format("{} = dim {} of constant `{}` {} (the table the index addresses)", *literal,
                                   dim - constant.shape.begin(), fqn, shape_text(constant.shape));
          evidence.push_back(quote_wrapper(w, load.line,
                                           fmt::format("the index addresses `{}`, bound to constant `{}` (`{}`)", load.pointer, arg, fqn)));
          const int shape_line = wrapper_line_with(w, constant.line, fmt::format("constants_info_[{}].shape", constant.index));
          evidence.push_back(quote_wrapper(w, shape_line ? shape_line : constant.line,
                                           fmt::format("constant `{}` (`{}`) has {} rows: valid indices are 0..{}",
                                                       constant.name, fqn, *literal, *literal - 1)));
        }
      }
    } else {
      const std::string arg = call ? argument_for(kernel, *call, assertion.bound) : "";
      bound_text = fmt::format("kernel parameter `{}`", assertion.bound);
      if (!arg.empty()) {
        bound_text += fmt::format(", bound at the launch to `{}`", arg);
        for (const auto& b : w.bindings) {
          if (b.symbol != arg) continue;
          const int input = input_index_of(w, b.input);
          const std::string range = input >= 0 ? dim_contract(w, input, b.dim) : "";
          bound_text += fmt::format(" = {} {} of model input `{}`{}", b.is_stride ? "stride" : "size", b.dim, b.input,
                                    range.empty() ? "" : fmt::format(" (declared {})", range));
          evidence.push_back(quote_wrapper(w, b.line,
                                      fmt::format("`{}` is dim {} of `{}`; an empty tensor makes it 0 and every index "
                                                  "out of bounds", b.symbol, b.dim, b.input)));
        }
      }
    }
    if (call) {
      evidence.push_back(quote_wrapper(w, call->line,
                                       call->source_nodes.empty() ? "the launch"
                                                                  : fmt::format("the launch; model code: {}", join(call->source_nodes))));
    }
    // The abort that followed, when the process left a core.
    for (const auto& core : c.cores) {
      if (core.signal_name != "SIGABRT") continue;
      const CoreThread* thread = crashing_thread(core);
      const std::string frames =
          thread ? frames_excerpt(*thread, 8, 0, [&](std::size_t i) { return !thread->frames[i].symbol.empty(); }) : "";
      evidence.push_back(Evidence{core_location(core),
                                  fmt::format("SIGABRT ({}) in thread {}{}", core.signal_code_name, thread ? thread->tid : 0,
                                              frames.empty() ? "" : "\n" + frames),
                                  fmt::format("the process aborted afterwards (terminate: the CUDA error became a C++ "
                                              "exception nobody caught){}",
                                              crash_phase_clause(core).empty() ? "" : ", " + crash_phase_clause(core))});
    }
    f.evidence = std::move(evidence);

    // The picture: where the index comes from, through the kernel, to what it overran.
    if (!index_input.empty()) f.chain.push_back(fmt::format("model input {} ({})", input_index_of(w, index_input), index_input));
    for (const TritonLoad* load : index_sources(kernel, assertion.index_var))
      f.chain.push_back(fmt::format("{} = tl.load({})", load->var, load->pointer));
    f.chain.push_back(fmt::format("index {} in {}", assertion.index_var, kernel.name));
    f.chain.push_back(fmt::format("assert 0 <= {} < {}", assertion.index_var, assertion.bound));
    f.chain.push_back(bound_text.substr(0, bound_text.find(" (")));

    f.title = fmt::format("Index out of bounds in kernel `{}`: `{}` reached {}", kernel.name, assertion.index_var,
                          assertion.bound);
    f.message = fmt::format(
        "The device assert `{}` fired {} time(s) in Triton kernel `{}`{}. The index comes from {}; the bound is {}.",
        assertion.message, e.repeats, kernel.name,
        call && !call->source_nodes.empty() ? fmt::format(" (model code: {})", join(call->source_nodes)) : "",
        index_from.empty() ? "a computed value" : index_from, bound_text);
    f.why = "An out-of-range index reads or writes outside a tensor: CUDA aborts the process (device-side assert) "
            "and every later CUDA call fails. The usual causes are input values outside the range the model "
            "expects (an id >= the embedding size) or an empty tensor making a dynamic size 0.";

    const std::string kernel_lines = show_wrapper_lines_command(w, kernel.source_begin, kernel.source_end);
    f.next_steps.push_back({"read the kernel", kernel_lines});
    if (!index_input.empty() && integer_literal(assertion.bound))
      f.next_steps.push_back(
          {fmt::format("check the values passed as `{}` (model input {}) before the call", index_input,
                       input_index_of(w, index_input)),
           fmt::format("assert 0 <= int(x.min()) and int(x.max()) < {}, (int(x.min()), int(x.max()))", assertion.bound),
           "python"});
    f.next_steps.push_back(rerun_step(c, "make the failure synchronous and reproducible, with the input checks on", "CUDA_LAUNCH_BLOCKING=1 PYTORCH_NO_CUDA_MEMORY_CACHING=1 AOTI_RUNTIME_CHECK_INPUTS=1"));
    f.next_steps.push_back(repackage_step(c, "re-package printing this kernel's inputs, then run again",
                                          fmt::format("AOT_INDUCTOR_FILTERED_KERNELS_TO_PRINT=\"{}\" "
                                                      "AOT_INDUCTOR_DEBUG_INTERMEDIATE_VALUE_PRINTER=2", kernel.name)));
    if (!integer_literal(assertion.bound))
      f.next_steps.push_back({"export with sample sizes 0, 1 and the maximum, and return early on empty inputs", ""});
    return f;
  }

  Finding untraced(const Case& c, const LogEvent& e) const {
    Finding f = new_finding(Severity::error, 0.7);
    f.explains_failure = true;
    f.subject = "assert " + e.subject;
    f.title = fmt::format("A Triton kernel hit `{}`", e.subject);
    f.message = "No package in this case holds a kernel with this exact assert text, so the kernel could not be named.";
    f.why = "An out-of-range index aborts the process on the GPU; the package's wrapper names the kernel and its inputs.";
    f.evidence.push_back(event_evidence(e, "the device assert that fired"));
    f.next_steps = {{"give the package that ran, to trace the kernel", "aoti-analyze model.pt2 " + e.where.artifact},
                    rerun_step(c, "make the failure synchronous, with the input checks on", "CUDA_LAUNCH_BLOCKING=1 AOTI_RUNTIME_CHECK_INPUTS=1")};
    return f;
  }

};

}  // namespace

std::unique_ptr<Check> make_triton_index_out_of_bounds() { return std::make_unique<IndexOutOfBounds>(); }

}  // namespace aoti::checks
