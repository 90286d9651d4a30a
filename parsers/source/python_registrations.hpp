// What a Python source registers: ops (custom_op, Library.define, torch.library.define) with their
// schemas, and the kernels bound to them (register_fake, impl_abstract, register_meta,
// register_kernel, Library.impl, torch.library.impl) resolved to their defs, also through the
// module's own aliases (`impl_abstract = torch.library.register_fake`) and wrappers (a def that
// passes its parameters on to a registration). Internal to parsers/source.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/facts/source.hpp"
#include "parsers/source/python_syntax.hpp"
#include "parsers/source/source_text.hpp"

namespace aoti::parsers::source {

struct PythonKernel {
  std::string op;
  std::string key;
  std::string function;  // name of the def
  int registration_line = 0;
  const py::Stmt* def = nullptr;  // null when the file does not define it
};

// A schema string of define(), for C5.
struct SchemaString {
  std::string op;
  const py::Expr* literal = nullptr;
  ParsedSchema schema;
};

struct PythonRegistrations {
  std::vector<PythonKernel> kernels;
  std::vector<SchemaString> schema_strings;
  // The module's own functions (not methods, not nested defs) by name, the last def of a name:
  // the helpers a kernel may call.
  std::map<std::string, const py::Stmt*> functions;
};

// Appends the ops `module` defines to `ops`; the kernels and schema strings in source order. The
// result points into `module`.
PythonRegistrations collect_python_registrations(const py::Module& module,
                                                 std::vector<model::SourceOp>& ops);

}  // namespace aoti::parsers::source
