#include "torch/error_messages.hpp"

namespace aoti::torch {

std::string_view problem_in_message(std::string_view text) {
  const auto has = [&](std::string_view part) { return text.find(part) != std::string_view::npos; };
  // symbolic_shapes.py: GuardOnDataDependentSymNode's "Could not guard on data-dependent
  // expression ..." and "Could not extract specialized integer from data-dependent expression".
  if (has("data-dependent expression")) return "data-dependent guard";
  // export: ConstraintViolationError's "Constraints violated (batch)! ...".
  if (has("Constraints violated (")) return "constraint violation";
  // torch.library.custom_op's fake_impl, and the Meta fallback for an op without a Meta kernel.
  if (has("There was no fake impl registered for ") ||
      has(": attempted to run this operator with Meta tensors"))
    return "missing fake";
  return "";
}

}  // namespace aoti::torch
