// shape.lower-bound-missing: a dim whose declared range admits 0 (or 1) bounds an index assert in a
// kernel: an empty input makes the bound 0 and every index out of bounds.
#include "checks/shape/lower_bound_missing.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "checks/support/contract.hpp"
#include "checks/support/finding.hpp"
#include "checks/support/kernels.hpp"

namespace aoti::checks {
namespace {
using namespace aoti::model;

// The symbol's range as the model's own trace recorded it, "" when no trace has it.
std::string trace_range(const Case& c, std::size_t model, const std::string& symbol) {
  for (const auto& trace : c.traces)
    if (trace.model == model)
      for (const auto& s : trace.symbols)
        if (s.name == symbol) return fmt::format("[{}, {}]", s.range_lo, s.range_hi);
  return "";
}

Finding report(const Case& c, const WrapperFacts& w, const TritonKernel& kernel,
               const TritonAssert& assertion, const KernelCall& call, const SymbolBinding& b,
               std::optional<std::int64_t> low, int low_line, const std::string& range) {
  Finding f = new_finding(ShapeLowerBoundMissingCheck::k_info, Severity::warning, 0.7);
  f.subject = fmt::format("kernel {} bound {}", kernel.name, b.symbol);
  f.title = fmt::format("Dim {} of `{}` may be {} yet bounds the index assert of `{}`", b.dim,
                        b.input, low && *low < 2 ? std::to_string(*low) : "0", kernel.name);
  f.message = fmt::format(
      "`{}` = dim {} of input `{}`{} is the bound `{}` of `{}`; the package {} A size of 0 makes "
      "`{} - 1` negative, "
      "the negative-index wrap keeps it, and the assert fires on any input of that size.",
      b.symbol, b.dim, b.input, range.empty() ? "" : " (traced range " + range + ")",
      assertion.bound, assertion.message,
      !low ? std::string("declares no lower bound for it.")
      : *low >= 2
          ? fmt::format("checks a minimum of {} only when AOTI_RUNTIME_CHECK_INPUTS=1 is set.",
                        *low)
          : fmt::format("accepts sizes down to {}.", *low),
      assertion.bound);
  f.why =
      "Empty and size-1 inputs are the edge cases export samples rarely cover; a missing "
      "lower-bound guard "
      "turns them into a failed index assert in production.";
  // A C++ kernel's assert is in its own file (<hash>.kernel.cpp): kernel_at says where.
  f.evidence.push_back(quote_kernel(w, kernel, assertion.line, assertion.text,
                                    fmt::format("index out of bounds: {}", assertion.message),
                                    fmt::format("in `{}`", kernel.name)));
  f.evidence.push_back(quote_wrapper(
      w, call.line, fmt::format("`{}` is launched with `{}`", assertion.bound, b.symbol)));
  f.evidence.push_back(quote_wrapper(w, b.line, fmt::format("dim {} of `{}`", b.dim, b.input)));
  if (low)
    f.evidence.push_back(quote_wrapper(
        w, low_line,
        w.checks_gated_by_env ? "the lower bound, checked only with AOTI_RUNTIME_CHECK_INPUTS=1"
                              : "the only lower bound the package checks"));
  f.chain = {fmt::format("input {} dim {} may be {}", b.input, b.dim,
                         low && *low < 2 ? std::to_string(*low) : "0"),
             fmt::format("{} = {}", assertion.bound, b.symbol),
             fmt::format("assert {}", assertion.message)};
  f.next_steps = {
      {"export with a lower bound, so the input checks refuse empty inputs",
       dynamic_shapes_text(w, input_index_of(w, b.input), b.dim,
                           fmt::format("torch.export.Dim(\"{}\", min=2)",
                                       dim_name_or(w, input_index_of(w, b.input), b.dim, "n"))),
       "python"},
      {"or return early on empty inputs before calling the model",
       fmt::format("if x.shape[{}] == 0:\n    return empty_result", b.dim), "python"},
      {"and export with sample sizes 0, 1 and the maximum", ""}};
  return f;
}

}  // namespace

std::vector<Finding> ShapeLowerBoundMissingCheck::run(const Case& c) const {
  std::vector<Finding> out;
  for (std::size_t m = 0; m < c.models.size(); ++m) {
    const auto& model = c.models[m];
    if (!model.wrapper) continue;
    const auto& w = *model.wrapper;
    for (const auto& kernel : w.kernels)
      for (const auto& assertion : kernel.asserts) {
        if (!is_size_symbol(assertion.bound) || !assertion.bound.starts_with("ks")) continue;
        const auto param = std::find(kernel.params.begin(), kernel.params.end(), assertion.bound);
        if (param == kernel.params.end()) continue;
        for (const auto& call : w.kernel_calls) {
          if (call.kernel != kernel.name) continue;
          const auto position = static_cast<std::size_t>(param - kernel.params.begin());
          if (position >= call.args.size()) continue;
          for (const auto& b : w.bindings) {
            if (b.symbol != call.args[position] || b.is_stride) continue;
            const int input = input_index_of(w, b.input);
            std::optional<std::int64_t> low;
            int low_line = 0;
            for (const auto& check : w.input_checks)
              if (check.input_index == input && check.dim == b.dim &&
                  check.kind == InputCheckKind::dim_min)
                low = check.value, low_line = check.line;
            // A minimum the package checks only with AOTI_RUNTIME_CHECK_INPUTS=1 does not stop an
            // empty input.
            if (low && *low >= 2 && !w.checks_gated_by_env) continue;
            out.push_back(report(c, w, kernel, assertion, call, b, low, low_line,
                                 trace_range(c, m, b.symbol)));
          }
        }
      }
  }
  return out;
}

}  // namespace aoti::checks
