// What custom-operator sources tell: schemas, meta / fake kernels, and the SymInt-unaware
// patterns in them, at exact lines. Filled by parsers/source; read by the customop checks.
#pragma once

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
};

// A kernel registered for an op. `traced` kernels run on fake tensors during export / AOTI
// tracing (Meta, CompositeImplicitAutograd, catch-all, Python fakes): only those are analyzed.
struct SourceKernel {
  std::string op;            // "ns::op"
  std::string dispatch_key;  // "Meta", "CompositeImplicitAutograd", "Fake", "CPU", "CUDA", ...
  std::string function;      // "op_meta", "<lambda>" for an inline lambda, "" when unresolved
  int registration_line = 0;  // the m.impl / decorator line
  int line_begin = 0;         // the function's extent, 0 when its body is not in this file
  int line_end = 0;
  bool traced = false;
  bool symint_aware = true;   // no violation in it or what it calls; untraced kernels are not analyzed (true)
};

// One SymInt-unaware pattern of failure-modes.md §1.3 at an exact place.
struct SourceViolation {
  std::string pattern;     // "C1".."C8", "P1".."P8"
  std::string op;          // "ns::op" of the kernel that reaches it, "" when not tied to one
  std::string function;    // the function the pattern is in (a helper the kernel calls, maybe)
  std::string file;        // the source as displayed (the artifact)
  int line = 0;            // 1-based
  int column = 0;          // 1-based, in bytes
  std::string excerpt;     // the source line, trimmed, at most 200 characters
  std::string message;     // what is wrong and what it does under dynamic shapes
  std::string suggestion;  // the SymInt-aware replacement: "x.sym_size(0)", "at::empty_symint(...)"
};

struct SourceFacts {
  std::string artifact;  // the source file
  std::string language;  // "c++" | "python"
  std::vector<SourceOp> ops;
  std::vector<SourceKernel> kernels;
  std::vector<SourceViolation> violations;  // ordered by line, then column
};

}  // namespace aoti::model
