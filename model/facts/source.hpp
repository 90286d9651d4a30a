// What custom-operator sources tell: schemas, meta / fake kernels, and the SymInt-unaware
// patterns in them, at exact lines. Filled by parsers/source; read by the customop checks, which
// alone say what a pattern means and how to fix it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace aoti::model {

// One argument of a schema string, as written: the spelling is kept because `int` and `SymInt`
// mean different things to the dispatcher, while a parsed FunctionSchema folds both to IntType.
struct SchemaArg {
  std::string name;  // "n"
  std::string type;  // "SymInt", "SymInt[]", "int?", "Tensor(a!)" without the alias: "Tensor"
};

// An operator defined in the source: `m.def("ns::op(...) -> ...")`, `lib.define(...)`,
// `@torch.library.custom_op("ns::op")` (schema inferred from type hints: `schema` empty).
struct SourceOp {
  std::string name;    // "ns::op" or "ns::op.overload"
  std::string schema;  // "op(Tensor x, SymInt n) -> Tensor", empty when inferred
  std::vector<SchemaArg> args;
  int line = 0;
  // The preprocessor branch the definition sits in, as written (`#ifdef USE_ROCM`, `#else of #if
  // defined(X)`), for a definition read from the file's text rather than the parse (a branch the
  // parse did not take, or code clang dropped): a build may or may not compile it. "" otherwise.
  std::string condition;
};

// How a C++ kernel parameter can carry a size: what the dispatcher does with it depends on the
// schema argument it is bound to, which may be in another file (checks pair them by op name).
enum class ParamKind {
  other,                  // a Tensor, a bool, a string, a nested list...
  concrete_int,           // int64_t
  optional_concrete_int,  // std::optional<int64_t> / c10::optional<int64_t>
  concrete_int_list,      // IntArrayRef, std::vector<int64_t>
  symbolic,               // c10::SymInt, SymIntArrayRef, std::optional<c10::SymInt>
};

// A parameter of a traced C++ kernel, where it is declared.
struct KernelParam {
  std::string name;
  std::string written_type;  // as written: "const std::vector<int64_t>&"
  ParamKind kind = ParamKind::other;
  int line = 0;  // 1-based
  int column = 0;
  std::string excerpt;        // the declaration's line, trimmed
  bool builds_shape = false;  // a concrete shape the kernel allocates (C2) is made from it
};

// A kernel registered for an op. `traced` kernels run on fake tensors during export / AOTI
// tracing (Meta, CompositeImplicitAutograd, catch-all, Python fakes): only those are analyzed.
struct SourceKernel {
  std::string op;             // "ns::op"
  std::string dispatch_key;   // "Meta", "CompositeImplicitAutograd", "Fake", "CPU", "CUDA", ...
  std::string function;       // "op_meta", "<lambda>" for an inline lambda, "" when unresolved
  int registration_line = 0;  // the m.impl / decorator line
  int line_begin = 0;         // the function's extent, 0 when its body is not in this file
  int line_end = 0;
  bool traced = false;
  // No pattern the parser found in its body or what it calls; untraced kernels are not analyzed
  // (true). Signature patterns (C3/C4) need the schema and are the checks' to find.
  bool symint_aware = true;
  std::vector<KernelParam> params;  // C++ kernels that are traced and whose body is in the file
};

// The shape of code a pattern matched. One pattern id of failure-modes.md §1.3 covers one or more
// forms; the fields of SourcePattern each form fills are listed beside it.
enum class PatternForm {
  size_read,     // C1 `x.size(0)`, `x.sizes()`, `x.numel()`: name (the accessor), matched_text (the
                 // call)
  rank_read,     // C1 `x.sizes().size()`: name "sizes", matched_text (the `x.sizes()` call)
  size_factory,  // C2 `at::empty(shape)` / `x.new_empty(shape)`: name, callee_namespace ("" for a
                 // Tensor method)
  size_container,       // C2 `std::vector<int64_t> v` holding sizes: name (the variable)
  size_local,           // C2 `const int n = sizes[0];` a size kept in a concrete int: name,
                        // written_type
  int_parameter,        // C3/C4 an int64_t / IntArrayRef parameter: name, written_type, schema_type
  int_schema_argument,  // C5 a schema `int` for a size: name, schema_type
  size_check,           // C6 TORCH_CHECK on sizes
  size_branch,          // C7 / P1 `if` / `while` on a size: matched_text (P1: the condition)
  data_read,            // C8 / P5 `.item()`, `.data_ptr()`, `.tolist()`: name (the method)
  size_assert,          // P1 `assert` on a size: matched_text (the condition)
  size_conditional,     // P1 `a if size > n else b`
  size_compare_builtin,    // P1 `max(...)` / `min(...)` on sizes: name
  size_to_number,          // P1 `int(size)`, `bool(size)`, `float(size)`: name
  size_range,              // P1 `range(size)`
  tensor_to_number,        // P5 `int(tensor)`: name
  device_move,             // P7 `.cuda()`, `.to("cuda")`
  device_literal,          // P7 `device="cuda"`: name (the device)
  get_ctx_in_meta,         // P8 `get_ctx()` in a Meta kernel
  literal_shape,           // P2 a shape of literals only
  literal_leading_dim,     // P2 a literal first dim while the rest follows the input: matched_text
                           // (the literal)
  outside_size,            // P2 a size read from a name outside the function: name
  returns_input,           // P6 returning an input tensor: name
  unused_shape_parameter,  // P3 a shape-changing parameter the fake never reads: name
  data_dependent_size,     // P4 a data-dependent output size derived from shapes
};

// One SymInt-unaware pattern of failure-modes.md §1.3 at an exact place: what the parser matched,
// as data. Messages and fixes are the checks' (checks/customop/symint_patterns.cpp).
struct SourcePattern {
  std::string id;  // "C1".."C8", "P1".."P8"
  PatternForm form = PatternForm::size_read;
  std::string op;            // "ns::op" of the kernel that reaches it, "" when not tied to one
  std::string function;      // the function the pattern is in (a helper the kernel calls, maybe)
  std::string file;          // the source as displayed (the artifact)
  int line = 0;              // 1-based
  int column = 0;            // 1-based, in bytes
  std::string excerpt;       // the source line, trimmed, at most 200 characters
  std::string name;          // what the match is about (see PatternForm), "" when nothing
  std::string matched_text;  // the matched source as written when on one line and at most 120
                             // bytes, else ""
  std::string
      written_type;  // int_parameter: the C++ type as written ("int64_t", "at::IntArrayRef")
  std::string
      schema_type;  // int_parameter / int_schema_argument: the schema's type ("SymInt", "int[]")
  std::string callee_namespace;  // size_factory: "at" / "torch", "" for a Tensor method
  // The kernel parameters that make this a size, when no tensor size is read for it (`int64_t n`
  // in `at::empty({n})`): a schema typing each of them `int` makes the value concrete by
  // contract, and the checks drop the pattern. Empty when a tensor size flows into it.
  std::vector<std::string> via_parameters;
  // A Python fake's untyped parameter this pattern needs to be a Tensor (`len(idx)` is a size read
  // only on a tensor, a list length otherwise): the checks keep the pattern when the op's schema,
  // wherever it is, types the parameter Tensor. Empty when the pattern holds as it is.
  std::string if_tensor_parameter;
};

// Where a host function launches a CUDA kernel: `kernel<<<blocks, threads>>>(...)`.
struct CudaLaunch {
  std::string function;  // the host function holding the launch ("scatter_rows_cuda")
  int line = 0;          // the launch's first line
  std::string text;      // that line as written (cut at SourceCudaKernel::k_max_kept_line bytes)
};

// A CUDA kernel (`__global__`) the source defines: what a GPU core's faulting symbol is matched
// to, and through its launches, the op whose kernel (SourceKernel::function) launches it.
struct SourceCudaKernel {
  std::string name;            // "scatter_rows_kernel", unqualified
  std::string qualified_name;  // "rowops::scatter_rows_kernel" inside a namespace, else `name`
  int parameters = 0;          // how many it declares
  int line = 0;                // its name's line
  int line_begin = 0;          // the definition's extent, first line (its attributes) to last
  int line_end = 0;
  int body_line = 0;  // the body's opening brace
  // The definition's lines line_begin..line_end as written (each cut at k_max_kept_line bytes),
  // so a check can quote one of them; empty when the definition is longer than
  // k_max_kept_lines lines.
  std::vector<std::string> text;
  std::vector<CudaLaunch> launches;
  static constexpr std::size_t k_max_kept_lines = 2000;
  static constexpr std::size_t k_max_kept_line = 4096;
};

struct SourceFacts {
  std::string artifact;  // the source file
  std::string language;  // "c++" | "cuda" (a .cu / .cuh file, parsed as CUDA) | "python"
  std::vector<SourceOp> ops;
  std::vector<SourceKernel> kernels;
  std::vector<SourceCudaKernel> cuda_kernels;  // CUDA sources only
  std::vector<SourcePattern>
      violations;  // the SymInt-unaware patterns, ordered by line, column, id
};

}  // namespace aoti::model
