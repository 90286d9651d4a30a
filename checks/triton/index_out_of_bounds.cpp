// triton.index-out-of-bounds: an index assert that fired — a Triton `tl.device_assert` or a C++
// kernel's `AOTI_TORCH_CHECK`, in every form torch's `indirect_assert` writes (both sides, lower
// only, upper only; the bound a literal, a kernel parameter or an expression of them) — traced from
// its text to the kernel, its launch, the wrapper symbol or constant behind the bound, and the
// input the index came from.
#include "checks/triton/index_out_of_bounds.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include <fmt/format.h>

#include "checks/support/commands.hpp"
#include "checks/support/contract.hpp"
#include "checks/support/crash.hpp"
#include "checks/support/finding.hpp"
#include "checks/support/kernels.hpp"
#include "model/describe.hpp"
#include "torch/index_assert.hpp"
#include "util/text.hpp"

namespace aoti::checks {
namespace {
using namespace aoti::model;

// The accesses whose address is computed from the index: the table it indexes. One per pointer:
// the first after the assert (a C++ kernel repeats its body for a vector tail).
std::vector<const TritonLoad*> indexed_accesses(const TritonKernel& kernel,
                                                const TritonAssert& assertion) {
  const int scope = assertion.scope;
  const auto index = derivation(kernel, assertion.index_var, scope);
  std::vector<const TritonLoad*> out;
  for (const auto& access : kernel.loads) {
    if (access.scope != scope) continue;
    bool addressed = false;
    for (const auto& t : temporaries_in(access.offset)) {
      for (const auto& d : derivation(kernel, t, scope))
        addressed = addressed || (index.count(d) > 0 && !load_of(kernel, d, scope));
      addressed = addressed || t == assertion.index_var;
    }
    if (!addressed) continue;
    const auto same = std::find_if(out.begin(), out.end(), [&](const TritonLoad* a) {
      return a->pointer == access.pointer && a->is_store == access.is_store;
    });
    if (same == out.end())
      out.push_back(&access);
    else if ((*same)->line < assertion.line && access.line >= assertion.line)
      *same = &access;
  }
  return out;
}

// `(const int64_t*)(arg1_1.data_ptr())` -> "arg1_1": the tensor a C++ launch passes; others as
// written.
bool is_cpp(const TritonKernel& kernel) { return kernel.language == KernelLanguage::cpp; }
std::string_view language_of(const TritonKernel& kernel) {
  return is_cpp(kernel) ? "C++" : "Triton";
}

std::string index_phrase(const TritonLoad& load, const std::string& index_var) {
  return load.var == index_var ? "is loaded from"
                               : fmt::format("is computed from `{}`, loaded from", load.var);
}

// What the upper bound is: a literal (and the table dim it equals), a kernel parameter traced to
// its launch argument, symbol and input dim, or an expression of those. Appends the evidence.
std::string trace_bound(const WrapperFacts& w, const TritonKernel& kernel, const KernelCall* call,
                        const std::vector<const TritonLoad*>& accesses, const std::string& bound,
                        std::vector<Evidence>& evidence) {
  if (auto literal = util::parse_int(bound)) {
    std::string text = fmt::format("the literal {} (a size fixed at compile time)", *literal);
    // The index addresses a table: the table's dims say which one the bound is.
    for (const TritonLoad* access : accesses) {
      const std::string arg = call ? argument_for(kernel, *call, access->pointer) : "";
      if (arg.empty()) continue;
      for (const auto& constant : w.constants) {
        if (constant.name != arg) continue;
        const auto dim = std::find(constant.shape.begin(), constant.shape.end(), *literal);
        if (dim == constant.shape.end()) continue;
        const std::string fqn =
            constant.original_fqn.empty() ? constant.name : constant.original_fqn;
        text = fmt::format("{} = dim {} of constant `{}` {} (the table the index addresses)",
                           *literal, dim - constant.shape.begin(), fqn, shape_text(constant.shape));
        const int shape_line = wrapper_line_with(
            w, constant.line, fmt::format("constants_info_[{}].shape", constant.index));
        evidence.push_back(quote_wrapper(
            w, shape_line ? shape_line : constant.line,
            fmt::format("constant `{}` (`{}`): dim {} has {} entries, valid indices are 0..{}",
                        constant.name, fqn, dim - constant.shape.begin(), *literal, *literal - 1)));
        return text;
      }
    }
    return text;
  }

  // Each kernel parameter (or wrapper symbol) the bound is written with, traced.
  const auto names = identifiers_in(bound);
  const bool single = names.size() == 1 && bound == names.front();
  std::vector<std::string> parts;
  for (const auto& name : names) {
    const bool param =
        std::find(kernel.params.begin(), kernel.params.end(), name) != kernel.params.end();
    std::string symbol = name;
    std::string part;
    if (param) {
      const std::string arg = call ? argument_for(kernel, *call, name) : "";
      if (arg.empty()) {
        parts.push_back(
            fmt::format("`{}` is a kernel parameter (its launch is not in the wrapper)", name));
        continue;
      }
      if (auto value = util::parse_int(arg)) {
        parts.push_back(fmt::format("`{}` is {} at the launch", name, *value));
        continue;
      }
      part = fmt::format("`{}` is bound at the launch to `{}`", name, arg);
      symbol = arg;
    }
    bool bound_to_input = false;
    for (const auto& b : w.bindings) {
      if (b.symbol != symbol) continue;
      const int input = input_index_of(w, b.input);
      const std::string range = input >= 0 ? dim_contract(w, input, b.dim) : "";
      const std::string dim_name = b.is_stride ? "" : dim_name_or(w, input, b.dim, "");
      part += fmt::format("{}{} {} of model input {}{}{}",
                          part.empty() ? fmt::format("`{}` is ", name) : " = ",
                          b.is_stride ? "stride" : "size", b.dim, input_display(w, b.input),
                          dim_name.empty() ? "" : fmt::format(", your Dim `{}`", dim_name),
                          range.empty() ? "" : fmt::format(" (declared {})", range));
      evidence.push_back(quote_wrapper(
          w, b.line,
          single ? fmt::format("`{}` is dim {} of `{}`; an empty tensor makes it 0 and every "
                               "index out of bounds",
                               b.symbol, b.dim, b.input)
                 : fmt::format("`{}` is dim {} of `{}`, one of the sizes the bound `{}` is "
                               "computed from",
                               b.symbol, b.dim, b.input, bound)));
      bound_to_input = true;
      break;
    }
    if (!part.empty() || bound_to_input) parts.push_back(std::move(part));
  }
  if (parts.empty())
    return single ? "a name that is neither one of the kernel's parameters nor a wrapper symbol"
                  : "an expression with no kernel parameter or wrapper symbol in it";
  if (single)
    return fmt::format(
        "{}: {}",
        std::find(kernel.params.begin(), kernel.params.end(), bound) != kernel.params.end()
            ? "a kernel parameter"
            : "a wrapper symbol",
        parts.front());
  return fmt::format("an expression of sizes: {}", join(parts, "; "));
}

Finding traced(const Case& c, const LogEvent& e, const ModelFacts& model,
               const TritonKernel& kernel, const TritonAssert& assertion, int same_text,
               bool by_line) {
  const WrapperFacts& w = *model.wrapper;
  const auto form = torch::parse_index_assert(assertion.message);
  const bool cpp = is_cpp(kernel);
  const std::string condition = form ? torch::condition_text(*form) : assertion.message;
  const std::string& var = assertion.index_var;
  Finding f = new_finding(TritonIndexOutOfBoundsCheck::k_info, Severity::error, 0.95);
  f.explains_failure = true;
  f.subject = fmt::format("kernel {} {}", kernel.name, assertion.message);

  const KernelCall* call = launch_of(w, kernel);

  std::vector<Evidence> evidence;
  evidence.push_back(
      event_evidence(e, cpp ? "the index check that failed" : "the device assert that fired"));
  const std::string where_note =
      same_text <= 1
          ? fmt::format("the only assert with this text: it is in kernel `{}`", kernel.name)
      : by_line ? fmt::format("{} asserts have this text; the error names this kernel and line",
                              same_text)
      : !e.kernel.empty() ? fmt::format("{} asserts have this text; the error names kernel `{}`",
                                        same_text, kernel.name)
                          : fmt::format("{} asserts have this text; the first is in kernel `{}`",
                                        same_text, kernel.name);
  evidence.push_back(
      quote_kernel(w, kernel, assertion.line, assertion.text,
                   fmt::format("{}({}, \"{}\")", cpp ? "AOTI_TORCH_CHECK" : "tl.device_assert",
                               assertion.condition, assertion.message),
                   where_note));

  // Where the index values come from.
  std::string index_input, index_from;
  const auto sources =
      var.empty() ? std::vector<const TritonLoad*>{} : index_sources(kernel, var, assertion.scope);
  for (const TritonLoad* load : sources) {
    const std::string arg = call ? argument_for(kernel, *call, load->pointer) : "";
    const int input = arg.empty() ? -1 : input_index_of(w, arg);
    evidence.push_back(quote_kernel(
        w, kernel, load->line, load->text,
        fmt::format("{} = {} + ({})", load->var, load->pointer, load->offset),
        fmt::format("`{}` {} `{}`{}", var, index_phrase(*load, var), load->pointer,
                    arg.empty()
                        ? ""
                        : fmt::format(", which the launch binds to `{}`{}", arg,
                                      input >= 0 ? fmt::format(" (model input {})", input) : ""))));
    if (input >= 0 && index_input.empty()) {
      index_input = arg;
      index_from = fmt::format("the values of model input {} {}", input, input_display(w, arg));
    } else if (index_from.empty() && !arg.empty()) {
      index_from = fmt::format("the values of `{}`", arg);
    }
  }

  // What the index addresses: the table it overran.
  const auto accesses =
      var.empty() ? std::vector<const TritonLoad*>{} : indexed_accesses(kernel, assertion);
  for (std::size_t i = 0; i < accesses.size() && i < 3; ++i) {
    const TritonLoad& access = *accesses[i];
    const std::string arg = call ? argument_for(kernel, *call, access.pointer) : "";
    std::string bound_to;
    if (!arg.empty()) {
      const int input = input_index_of(w, arg);
      const auto constant = std::find_if(w.constants.begin(), w.constants.end(),
                                         [&](const WrapperConstant& k) { return k.name == arg; });
      bound_to = input >= 0
                     ? fmt::format(", which the launch binds to `{}` (model input {})", arg, input)
                 : constant != w.constants.end()
                     ? fmt::format(", which the launch binds to constant `{}`{}", arg,
                                   constant->original_fqn.empty() || constant->original_fqn == arg
                                       ? ""
                                       : fmt::format(" (`{}`)", constant->original_fqn))
                     : fmt::format(", which the launch binds to `{}`", arg);
    }
    evidence.push_back(quote_kernel(
        w, kernel, access.line, access.text,
        fmt::format("{} + ({})", access.pointer, access.offset),
        fmt::format("the index {} `{}`{}", access.is_store ? "writes into" : "addresses",
                    access.pointer, bound_to)));
  }

  // What the bound is.
  const bool upper = !assertion.bound.empty();
  const std::string bound_text =
      upper ? trace_bound(w, kernel, call, accesses, assertion.bound, evidence) : "";
  std::string bound_sentence;
  if (upper)
    bound_sentence = fmt::format("the bound `{}` is {}", assertion.bound, bound_text);
  else if (form)
    bound_sentence = fmt::format(
        "the assert checks the lower side only (`{}`), so the index was negative: Inductor leaves "
        "the upper "
        "side out when the index's value range already stays below the size",
        condition);
  else
    bound_sentence =
        "the assert's text is not one of the forms Inductor writes, so its bound is not known";

  if (call)
    evidence.push_back(
        quote_wrapper(w, call->line,
                      call->source_nodes.empty()
                          ? "the launch"
                          : fmt::format("the launch; model code: {}", join(call->source_nodes))));
  // The abort that followed, when the process left a core.
  for (const auto& core : c.cores) {
    if (core.signal_name != "SIGABRT") continue;
    const CoreThread* thread = crashing_thread(core);
    std::vector<std::string> frames;
    if (thread)
      for (std::size_t i = 0; i < thread->frames.size() && frames.size() < 8; ++i)
        if (!thread->frames[i].symbol.empty()) frames.push_back(frame_text(thread->frames[i], i));
    evidence.push_back(Evidence{
        core_location(core),
        fmt::format("SIGABRT ({}) in thread {}{}", core.signal_code_name, thread ? thread->tid : 0,
                    frames.empty() ? std::string() : fmt::format("\n{}", join(frames, "\n"))),
        fmt::format("the process aborted afterwards ({}){}",
                    cpp ? "terminate: the kernel's c10::Error was not caught"
                        : "terminate: the CUDA error became a C++ exception nobody caught",
                    crash_phase(core).empty() ? "" : ", while " + crash_phase(core))});
  }
  f.evidence = std::move(evidence);

  // The picture: where the index comes from, through the kernel, to what it overran.
  if (!index_input.empty())
    f.chain.push_back(
        fmt::format("model input {} ({})", input_index_of(w, index_input), index_input));
  for (const TritonLoad* load : sources)
    f.chain.push_back(fmt::format("{} loaded from {}", load->var, load->pointer));
  if (!var.empty()) f.chain.push_back(fmt::format("index {} in {}", var, kernel.name));
  f.chain.push_back(fmt::format("assert {}", condition));
  f.chain.push_back(
      upper ? fmt::format("{}: {}", assertion.bound, bound_text.substr(0, bound_text.find(" (")))
            : "a negative index");

  f.title = fmt::format("Index out of bounds in {} kernel `{}`: `{}` failed", language_of(kernel),
                        kernel.name, condition);
  const std::string model_code = call && !call->source_nodes.empty()
                                     ? fmt::format(" (model code: {})", join(call->source_nodes))
                                     : "";
  f.message = fmt::format(
      "The {} `{}` fired {} time(s) in {} kernel `{}`{}. The index{} comes from {}; {}.",
      cpp ? "index check" : "device assert", assertion.message, e.repeats, language_of(kernel),
      kernel.name, model_code, var.empty() ? "" : fmt::format(" `{}`", var),
      index_from.empty() ? "a computed value" : index_from, bound_sentence);
  f.why = cpp ? "An out-of-range index would read or write outside a tensor: the C++ kernel's "
                "check throws a "
                "c10::Error, the AOTI runtime prints its message after `Error:` and the run fails. "
                "The usual causes "
                "are input values outside the range the model expects (an id >= the embedding "
                "size, a negative id) "
                "or an empty tensor making a dynamic size 0."
              : "An out-of-range index reads or writes outside a tensor: CUDA aborts the process "
                "(device-side "
                "assert) and every later CUDA call fails. The usual causes are input values "
                "outside the range the "
                "model expects (an id >= the embedding size) or an empty tensor making a dynamic "
                "size 0.";

  f.next_steps.push_back(
      {"read the kernel",
       kernel.source.artifact.empty()
           ? show_wrapper_lines_command(w, kernel.source_begin, kernel.source_end)
           : show_lines_command(kernel_at(w, kernel, 0), kernel.source_begin, kernel.source_end)});
  const auto literal = upper ? util::parse_int(assertion.bound) : std::nullopt;
  // The tensor the user passes, by the name their forward argument has when the trace says it.
  std::string tensor = "x";
  for (const auto& input : w.inputs)
    if (input.name == index_input && !input.user_name.empty()) tensor = input.user_name;
  if (!index_input.empty() && literal)
    f.next_steps.push_back(
        {fmt::format("check the values passed as {} (model input {}) before the call",
                     input_display(w, index_input), input_index_of(w, index_input)),
         fmt::format("assert 0 <= int({0}.min()) and int({0}.max()) < {1}, (int({0}.min()), "
                     "int({0}.max()))",
                     tensor, *literal),
         "python"});
  else if (!index_input.empty() && !upper && form)
    f.next_steps.push_back(
        {fmt::format("check the values passed as {} (model input {}) before the call",
                     input_display(w, index_input), input_index_of(w, index_input)),
         fmt::format("assert int({0}.min()) >= 0, int({0}.min())", tensor), "python"});
  f.next_steps.push_back(
      cpp ? rerun_step(c, "run again with the input checks on", "AOTI_RUNTIME_CHECK_INPUTS=1")
          : rerun_step(c, "make the failure synchronous and reproducible, with the input checks on",
                       "CUDA_LAUNCH_BLOCKING=1 PYTORCH_NO_CUDA_MEMORY_CACHING=1 "
                       "AOTI_RUNTIME_CHECK_INPUTS=1"));
  f.next_steps.push_back(
      repackage_step(c, "re-package printing this kernel's inputs, then run again",
                     fmt::format("AOT_INDUCTOR_FILTERED_KERNELS_TO_PRINT=\"{}\" "
                                 "AOT_INDUCTOR_DEBUG_INTERMEDIATE_VALUE_PRINTER=2",
                                 kernel.name)));
  if (upper && !literal)
    f.next_steps.push_back(
        {"export with sample sizes 0, 1 and the maximum, and return early on empty inputs", ""});
  // An index computed from a dim's size, against a fixed bound the contract lets the dim exceed:
  // the cause is the exported range, and the fix is to cap it.
  for (const auto& hazard : unguarded_ranges(w)) {
    if (hazard.assertion != &assertion) continue;
    f.message += " " + range_hazard_sentence(w, hazard) + ".";
    for (auto& evidence : range_hazard_evidence(w, hazard))
      f.evidence.push_back(std::move(evidence));
    f.next_steps.insert(f.next_steps.begin(), range_hazard_fix(w, hazard));
  }
  return f;
}

Finding untraced(const Case& c, const LogEvent& e) {
  const bool cpp = !e.kernel.empty() || e.source_file.ends_with(".cpp");
  // ATen's own CUDA kernels assert with a C++ condition (`IndexKernel.cu`): not Inductor's.
  const bool aten = !cpp && e.source_file.ends_with(".cu");
  Finding f = new_finding(TritonIndexOutOfBoundsCheck::k_info, Severity::error, 0.7);
  f.explains_failure = true;
  f.subject = "assert " + e.subject;
  f.title = cpp    ? fmt::format("A C++ kernel{} failed `{}`",
                              e.kernel.empty() ? "" : fmt::format(" (`{}`)", e.kernel), e.subject)
            : aten ? fmt::format("An ATen CUDA kernel (`{}`) hit `{}`", module_name(e.source_file),
                                 e.subject)
                   : fmt::format("A Triton kernel hit `{}`", e.subject);
  f.message = fmt::format(
      "No package in this case holds a kernel with this exact assert text{}, so the kernel's "
      "inputs could not be traced.",
      e.kernel.empty() ? "" : fmt::format(" in `{}`", e.kernel));
  f.why = cpp    ? "An out-of-range index makes the kernel's check throw and the run fail; the "
                   "package's wrapper and "
                   "kernel source name the kernel's inputs."
          : aten ? "An out-of-range index given to an ATen op aborts the process on the GPU; the "
                   "package's wrapper "
                   "names the call that passed it."
                 : "An out-of-range index aborts the process on the GPU; the package's wrapper "
                   "names the kernel and its inputs.";
  f.evidence.push_back(
      event_evidence(e, cpp ? "the index check that failed" : "the device assert that fired"));
  f.next_steps = {
      {"give the package that ran (PACKAGE: the package file), to trace the kernel",
       reanalyze_command(c, "\"$PACKAGE\"")},
      cpp ? rerun_step(c, "run again with the input checks on", "AOTI_RUNTIME_CHECK_INPUTS=1")
          : rerun_step(c, "make the failure synchronous, with the input checks on",
                       "CUDA_LAUNCH_BLOCKING=1 AOTI_RUNTIME_CHECK_INPUTS=1")};
  return f;
}

}  // namespace

std::vector<Finding> TritonIndexOutOfBoundsCheck::run(const Case& c) const {
  std::vector<Finding> out;
  for (const auto& e : c.log_events) {
    if (e.kind != LogEventKind::triton_assert) continue;
    const ModelFacts* model = model_of(c, e);
    const TritonKernel* kernel = nullptr;
    const TritonAssert* assertion = nullptr;
    int same_text = 0;
    bool by_line = false;
    if (model && model->wrapper)
      for (const auto& k : model->wrapper->kernels)
        for (const auto& a : k.asserts) {
          if (a.message != e.subject) continue;
          ++same_text;
          // A C++ check's error names its kernel, and the file and line of the check.
          if (!e.kernel.empty() && e.kernel != k.name) continue;
          const bool at_line =
              e.source_line == a.line && !k.source.artifact.empty() &&
              module_name(e.source_file) ==
                  module_name(k.source.entry.empty() ? k.source.artifact : k.source.entry);
          if (!kernel || (at_line && !by_line)) kernel = &k, assertion = &a, by_line = at_line;
        }
    out.push_back(kernel ? traced(c, e, *model, *kernel, *assertion, same_text, by_line)
                         : untraced(c, e));
  }
  return out;
}

}  // namespace aoti::checks
