#include "torch/error_messages.hpp"

#include <array>
#include <utility>

namespace aoti::torch {
namespace {

// (Triton's CompilationError is left out: it says the generated kernel's source is wrong, which
// is Inductor's code generation, not the compiler below it.)
// The classes of torch/_dynamo/exc.py, torch/_inductor/exc.py, symbolic_shapes.py,
// torch/_subclasses/fake_tensor.py, torch/__init__.py and triton/compiler/errors.py,
// triton/runtime/errors.py that a user sees without their module.
constexpr std::array<std::pair<std::string_view, Subsystem>, 38> k_classes = {{
    {"TorchDynamoException", Subsystem::dynamo},
    {"InternalTorchDynamoError", Subsystem::dynamo},
    {"TorchRuntimeError", Subsystem::dynamo},
    {"InvalidBackend", Subsystem::dynamo},
    {"ResetRequired", Subsystem::dynamo},
    {"BackendCompilerFailed", Subsystem::dynamo},
    {"Unsupported", Subsystem::dynamo},
    {"RecompileError", Subsystem::dynamo},
    {"InfiniteGeneratorError", Subsystem::dynamo},
    {"CondOpArgsMismatchError", Subsystem::dynamo},
    {"UserError", Subsystem::dynamo},
    {"UnsafeScriptObjectError", Subsystem::dynamo},
    {"UncapturedHigherOrderOpError", Subsystem::dynamo},
    {"FailOnRecompileLimitHit", Subsystem::dynamo},
    {"PackageError", Subsystem::dynamo},
    {"ObservedException", Subsystem::dynamo},
    {"StepUnsupported", Subsystem::dynamo},
    {"LoweringException", Subsystem::inductor_lowering},
    {"SubgraphLoweringException", Subsystem::inductor_lowering},
    {"MissingOperatorWithoutDecomp", Subsystem::inductor_lowering},
    {"MissingOperatorWithDecomp", Subsystem::inductor_lowering},
    {"InductorError", Subsystem::inductor},
    {"GPUTooOldForTriton", Subsystem::inductor},
    {"CppWrapperCodegenError", Subsystem::inductor_codegen},
    {"CppCompileError", Subsystem::inductor_build},
    {"CUDACompileError", Subsystem::inductor_build},
    {"InvalidCxxCompiler", Subsystem::inductor_build},
    {"GuardOnDataDependentSymNode", Subsystem::symbolic_shapes},
    {"ConstraintViolationError", Subsystem::symbolic_shapes},
    {"PendingUnbackedSymbolNotFound", Subsystem::symbolic_shapes},
    {"DynamicOutputShapeException", Subsystem::fake_tensor},
    {"DataDependentOutputException", Subsystem::fake_tensor},
    {"UnsupportedOperatorException", Subsystem::fake_tensor},
    {"MetadataMismatchError", Subsystem::fake_tensor},
    {"OutOfMemoryError", Subsystem::cuda},
    {"AcceleratorError", Subsystem::cuda},
    {"PTXASError", Subsystem::triton_compile},
    {"OutOfResources", Subsystem::triton_runtime},
}};

// Module prefixes, most specific first.
constexpr std::array<std::pair<std::string_view, Subsystem>, 9> k_modules = {{
    {"torch._dynamo.", Subsystem::dynamo},
    {"torch._inductor.", Subsystem::inductor},
    {"torch.export.", Subsystem::export_},
    {"torch._export.", Subsystem::export_},
    {"torch.fx.experimental.symbolic_shapes.", Subsystem::symbolic_shapes},
    {"torch._subclasses.", Subsystem::fake_tensor},
    {"torch.utils.cpp_extension.", Subsystem::cpp_extension},
    {"triton.compiler.", Subsystem::triton_compile},
    {"triton.runtime.", Subsystem::triton_runtime},
}};

}  // namespace

Subsystem subsystem_of_exception(std::string_view type) {
  const auto dot = type.rfind('.');
  const auto name = dot == std::string_view::npos ? type : type.substr(dot + 1);
  for (const auto& [known, subsystem] : k_classes)
    if (name == known) return subsystem;
  for (const auto& [module, subsystem] : k_modules)
    if (type.starts_with(module)) return subsystem;
  return Subsystem::unknown;
}

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
