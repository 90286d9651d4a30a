#include "torch/error_messages.hpp"
#include "util/text.hpp"

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

Subsystem subsystem_of_message(std::string_view text) {
  const auto has = [&](std::string_view part) { return text.find(part) != std::string_view::npos; };
  // triton/backends/nvidia/compiler.py (ptx_get_version), and the MLIR/LLVM passes Triton runs.
  // triton/compiler/code_generator.py: a @jit kernel read a global that is not a constexpr.
  if (has("from within @jit'ed function")) return Subsystem::triton_compile;
  if (has("Triton only support CUDA 10.0 or higher") || has("PassManager::run failed") ||
      has("LLVM ERROR: "))
    return Subsystem::triton_compile;
  // Triton's NVIDIA driver module (libcuda_dirs(), before it builds its launcher): no libcuda.so
  // in ldconfig's cache or TRITON_LIBCUDA_PATH.
  if (has("libcuda.so cannot found")) return Subsystem::triton_compile;
  // torch/export/_trace.py: a constant of the traced program is still a FakeTensor (an op the
  // tracer could not see through left it behind), named by its attribute.
  if (has("We found a fake tensor in the exported program constant's list"))
    return Subsystem::export_;
  // torch/_guards.py detect_fake_mode(): the inputs of one trace carry fake tensors of two
  // different FakeTensorModes (a trace nested in another one's mode).
  if (has("fake mode (") && has("doesn't match mode (")) return Subsystem::fake_tensor;
  // torch/_inductor (has_triton() false when a GPU kernel must be compiled): no compiler to build
  // the generated kernels with.
  if (has("Cannot find a working triton installation")) return Subsystem::inductor_build;
  // c10/core/TensorImpl: a kernel asked for the storage of a FakeTensor or FunctionalTensor, which
  // only happens while a graph is traced (torch.compile, export).
  if (has("Cannot access data pointer of Tensor that doesn't have storage"))
    return Subsystem::fake_tensor;
  // torch/_dynamo: the compiler backend raised on the graph Dynamo captured (BackendCompilerFailed,
  // whose graph-break record reads `Backend compiler `inductor` failed with <error>`).
  if (has("Backend compiler `inductor` failed") || has("backend='inductor' raised"))
    return Subsystem::inductor;
  return Subsystem::unknown;
}

bool is_custom_op_target(std::string_view target) {
  if (!target.starts_with("torch.ops.")) return false;
  const auto rest = target.substr(10);
  const auto ns = rest.substr(0, rest.find('.'));
  if (ns.empty() || ns.size() == rest.size()) return false;
  for (std::string_view own :
       {"aten", "prims", "higher_order", "_c10d_functional", "c10d_functional", "c10d", "_dtensor",
        "quantized", "profiler", "inductor", "_inductor_test", "debugprims", "rngprims", "mkldnn",
        "onednn", "quantized_decomposed", "_quantized"})
    if (ns == own) return false;
  return true;
}

std::string_view unregistered_op_in(std::string_view text) {
  constexpr std::string_view k_start = "operator ";
  constexpr std::string_view k_end = " does not exist";
  for (auto at = text.find(k_start); at != std::string_view::npos;
       at = text.find(k_start, at + 1)) {
    const auto name = text.substr(at + k_start.size());
    const auto end = name.find(k_end);
    if (end == std::string_view::npos) return {};
    const auto op = name.substr(0, end);
    const auto sep = op.find("::");
    if (sep != std::string_view::npos && sep > 0 && op.size() > sep + 2 &&
        op.find(' ') == std::string_view::npos)
      return op;
  }
  return {};
}

std::string_view problem_in_message(std::string_view text) {
  const auto has = [&](std::string_view part) { return text.find(part) != std::string_view::npos; };
  if (!unregistered_op_in(text).empty()) return "op not registered";
  // torch/csrc/dynamo/guards.cpp's assert_size_stride, which Inductor's generated code calls on
  // the output of every fallback and custom op: `expected size 32==32, stride 6144==4096 at
  // dim=0` (the real output's value, then what the compiled graph was built for).
  if (has("expected size ") && has(", stride ") && has(" at dim=")) return "size/stride assert";
  // symbolic_shapes.py: GuardOnDataDependentSymNode's "Could not guard on data-dependent
  // expression ..." and "Could not extract specialized integer from data-dependent expression".
  if (has("data-dependent expression")) return "data-dependent guard";
  // export: ConstraintViolationError's "Constraints violated (batch)! ...".
  if (has("Constraints violated (")) return "constraint violation";
  // torch.library.custom_op's fake_impl, and the Meta fallback for an op without a Meta kernel.
  if (has("There was no fake impl registered for ") ||
      has(": attempted to run this operator with Meta tensors") ||
      // Dynamo's graph break for fake tensor's UnsupportedOperatorException, as a trace's
      // fail_reason holds it: `Operator does not support running with fake tensors` ...
      // `unsupported operator: corpus.row_scale.default`.
      (has("Operator does not support running with fake tensors") && has("unsupported operator: ")))
    return "missing fake";
  // c10's dispatcher, for an op with no kernel for the Meta key a trace runs (`Could not run
  // 'mylib::foo' with arguments from the 'Meta' backend.`): a custom op without a Meta kernel or
  // fake; ATen's own ops have one.
  if (const auto op =
          util::between(text, "Could not run '", "' with arguments from the 'Meta' backend");
      !op.empty() && !op.starts_with("aten::") && !op.starts_with("prims::"))
    return "missing fake";
  // c10's SymIntArrayRef check in a kernel that reads sizes as plain integers, raised from a
  // registration other than a Meta one (`RegisterCompositeExplicitAutograd.cpp:1164: SymIntArrayRef
  // expected to contain only concrete integers`): with no fake or Meta kernel for the op, its
  // composite kernel ran on the symbolic shapes of a trace.
  if (has("expected to contain only concrete integers") && !has("RegisterMeta"))
    return "missing fake";
  // torch.library.opcheck's OpCheckError (torch/testing/_internal/optests/generate_tests.py):
  // `opcheck(op, ...): test_faketensor failed with` and the reason on the next line: the op's fake
  // kernel and its real kernel disagree.
  if (has("opcheck(") && has("test_faketensor failed")) return "opcheck fake mismatch";
  // c10's TensorImpl refusing a concrete-size accessor on a tensor whose sizes are symbolic
  // (`Cannot call sizes() on tensor with symbolic sizes/strides`): a C++ kernel that is not
  // SymInt-aware ran while a graph was traced.
  if (has("Cannot call ") && has(" on tensor with symbolic sizes/strides"))
    return "concrete sizes of a symbolic tensor";
  // ATen's and autograd's own statements that a tensor holds NaN or Inf: torch.multinomial's
  // check of its probabilities (ATen/native/Distributions.cpp), anomaly mode's check of a
  // backward function's output, clip_grad_norm_'s check of the total norm.
  if (has("probability tensor contains either `inf`, `nan` or element < 0") ||
      (has("' returned nan values in its ") && has("th output")) ||
      has("is non-finite, so it cannot be clipped"))
    return "non-finite values";
  return "";
}

bool is_illegal_memory_access(std::string_view text) {
  return text.find("illegal memory access") != std::string_view::npos ||
         text.find("cudaErrorIllegalAddress") != std::string_view::npos ||
         text.find("CUDA_ERROR_ILLEGAL_ADDRESS") != std::string_view::npos;
}

}  // namespace aoti::torch
