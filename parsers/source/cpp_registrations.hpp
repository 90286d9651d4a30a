// What the TORCH_LIBRARY blocks of a C++ source register: ops with their schemas, and the
// kernel each m.def / m.impl binds, resolved to its function or lambda. Internal to parsers/source.
#pragma once

#include "parsers/source/libclang.hpp"

#include <cstddef>
#include <string>
#include <vector>

#include "model/facts/source.hpp"
#include "parsers/source/clang_cursor.hpp"
#include "parsers/source/source_text.hpp"

namespace aoti::parsers::source {

struct KernelRef {
  std::string op;
  std::string key;
  CXCursor function;  // FunctionDecl or LambdaExpr; null cursor when unresolved
  std::string name;
  int registration_line = 0;
};

// A schema string of m.def, for C5.
struct SchemaLiteral {
  std::size_t op;  // index into the ops
  CXCursor literal;
  ParsedSchema schema;
};

// A registration through a macro whose definition is not among the inputs and whose name does
// not say a dispatch key: the kernel it binds is not analyzed, and a diagnostic says so.
struct UnresolvedRegistration {
  std::string macro;
  std::string op;
  int line = 0;
};

struct CppRegistrations {
  std::vector<KernelRef> kernels;
  std::vector<SchemaLiteral> schema_literals;
  std::vector<UnresolvedRegistration> unresolved;
};

// Appends the ops the file defines to `ops`; the kernels and schema literals in source order.
CppRegistrations collect_cpp_registrations(CXTranslationUnit tu, const MainFile& file,
                                           std::vector<model::SourceOp>& ops);

}  // namespace aoti::parsers::source
