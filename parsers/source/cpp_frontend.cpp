// The C++ front end. libclang parses the file against the bundled torch declarations (or real
// headers when given), recovers what it can from code that does not compile, and the walk below
// finds registrations, resolves their kernels and checks what those kernels (and the same-file
// functions they call) do with sizes.
#include "parsers/source/cpp_frontend.hpp"

#include <clang-c/CXCompilationDatabase.h>
#include <clang-c/Index.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>

#include "parsers/source/source_text.hpp"
#include "parsers/source/torch_stubs.hpp"

namespace aoti::parsers::source {
namespace {

using model::PatternForm;

constexpr std::size_t k_max_call_depth = 4;     // helpers followed from a kernel: kernel → a → b → c → d
constexpr int k_max_ast_depth = 512;    // recursion bound for hostile nesting
constexpr std::size_t k_max_diagnostics = 5;

std::string take(CXString s) {
  const char* c = clang_getCString(s);
  std::string out = c ? c : "";
  clang_disposeString(s);
  return out;
}

std::string spelling(CXCursor c) { return take(clang_getCursorSpelling(c)); }

std::vector<CXCursor> children(CXCursor c) {
  std::vector<CXCursor> out;
  clang_visitChildren(
      c,
      [](CXCursor child, CXCursor, CXClientData data) {
        static_cast<std::vector<CXCursor>*>(data)->push_back(child);
        return CXChildVisit_Continue;
      },
      &out);
  return out;
}

// Pre-order search of a subtree; `visit` returns true to stop.
template <class F>
bool any_descendant(CXCursor c, F&& visit, int depth = 0) {
  if (depth > k_max_ast_depth) return false;
  for (CXCursor child : children(c)) {
    if (visit(child) || any_descendant(child, visit, depth + 1)) return true;
  }
  return false;
}

struct Place {
  int line = 0;
  int column = 0;
  unsigned offset = 0;
  bool in_main = false;  // written in the analyzed file (directly or as a macro invocation there)
};

bool in_system_header(CXCursor c) { return clang_Location_isInSystemHeader(clang_getCursorLocation(c)) != 0; }

std::string parent_name(CXCursor c) { return spelling(clang_getCursorSemanticParent(c)); }

// The namespace a declaration sits in ("at", "torch", "c10"), looking through classes.
std::string enclosing_namespace(CXCursor c) {
  for (CXCursor p = clang_getCursorSemanticParent(c); !clang_Cursor_isNull(p) && clang_getCursorKind(p) != CXCursor_TranslationUnit;
       p = clang_getCursorSemanticParent(p)) {
    if (clang_getCursorKind(p) == CXCursor_Namespace) return spelling(p);
  }
  return {};
}

bool is_tensor_method(CXCursor method) {
  if (clang_getCursorKind(method) != CXCursor_CXXMethod) return false;
  const std::string cls = parent_name(method);
  return (cls == "Tensor" || cls == "TensorBase") && enclosing_namespace(method) == "at";
}

constexpr std::array<std::string_view, 6> k_concrete_accessors{
    "size", "sizes", "numel", "stride", "strides", "storage_offset"};
constexpr std::array<std::string_view, 6> k_symbolic_accessors{
    "sym_size", "sym_sizes", "sym_numel", "sym_stride", "sym_strides", "sym_storage_offset"};
constexpr std::array<std::string_view, 8> k_data_accessors{
    "item", "data_ptr", "const_data_ptr", "mutable_data_ptr", "accessor", "packed_accessor32",
    "packed_accessor64", "cpu"};
constexpr std::array<std::string_view, 7> k_concrete_factories{
    "empty", "zeros", "ones", "full", "empty_strided", "rand", "randn"};
constexpr std::array<std::string_view, 2> k_concrete_tensor_factories{"new_empty", "new_zeros"};

template <std::size_t N>
bool one_of(std::string_view name, const std::array<std::string_view, N>& set) {
  return std::find(set.begin(), set.end(), name) != set.end();
}

// The called declaration of a CallExpr, null when the call did not resolve (broken code).
CXCursor callee_of(CXCursor call) { return clang_getCursorReferenced(call); }

bool is_size_accessor_call(CXCursor c) {
  if (clang_getCursorKind(c) != CXCursor_CallExpr) return false;
  const CXCursor callee = callee_of(c);
  if (!is_tensor_method(callee)) return false;
  const std::string name = spelling(callee);
  return one_of(name, k_concrete_accessors) || one_of(name, k_symbolic_accessors);
}

// What a registration block declares: TORCH_LIBRARY(ns, m) / _FRAGMENT / _IMPL(ns, Key, m).
struct Block {
  std::string ns;
  std::string key;  // empty for TORCH_LIBRARY / TORCH_LIBRARY_FRAGMENT
};

// Reads the macro invocation at the start of a function: works with the bundled declarations
// and with real torch headers alike, whatever names their expansions give the function.
std::optional<Block> block_at(std::string_view text, unsigned offset) {
  if (offset >= text.size()) return std::nullopt;
  std::string_view s = text.substr(offset, 512);
  std::string_view macro;
  for (std::string_view m : {"TORCH_LIBRARY_FRAGMENT", "TORCH_LIBRARY_IMPL", "TORCH_LIBRARY"})
    if (s.starts_with(m)) { macro = m; break; }
  if (macro.empty()) return std::nullopt;
  const std::size_t open = s.find('(', macro.size());
  const std::size_t close = s.find(')', macro.size());
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) return std::nullopt;
  std::vector<std::string> args;
  std::string current;
  for (char ch : s.substr(open + 1, close - open - 1)) {
    if (ch == ',') { args.push_back(current); current.clear(); }
    else if (!std::isspace(static_cast<unsigned char>(ch))) current += ch;
  }
  args.push_back(current);
  if (args.size() < 2 || args[0].empty()) return std::nullopt;
  Block b{args[0], {}};
  if (macro == "TORCH_LIBRARY_IMPL") {
    if (args.size() < 3) return std::nullopt;
    b.key = args[1];
  }
  return b;
}

std::string qualify(const std::string& ns, std::string name) {
  if (name.find("::") != std::string::npos || ns.empty()) return name;
  return ns + "::" + name;
}

// The text of C++ string literal tokens as clang spells them (`"a" "b"`, `R"(x)"`, `u8"x"`),
// joined and with simple escapes undone.
std::string unquote(std::string_view spelled) {
  std::string out;
  std::size_t i = 0;
  while (i < spelled.size()) {
    const std::size_t quote = spelled.find('"', i);
    if (quote == std::string_view::npos) break;
    if (quote > 0 && spelled[quote - 1] == 'R') {  // R"delim( ... )delim"
      const std::size_t open = spelled.find('(', quote);
      if (open == std::string_view::npos) break;
      const std::string close = ")" + std::string(spelled.substr(quote + 1, open - quote - 1)) + "\"";
      const std::size_t end = spelled.find(close, open);
      if (end == std::string_view::npos) break;
      out += spelled.substr(open + 1, end - open - 1);
      i = end + close.size();
      continue;
    }
    std::size_t j = quote + 1;
    for (; j < spelled.size() && spelled[j] != '"'; ++j) {
      if (spelled[j] == '\\' && j + 1 < spelled.size()) {
        ++j;
        out += spelled[j] == 'n' ? '\n' : spelled[j] == 't' ? '\t' : spelled[j];
      } else {
        out += spelled[j];
      }
    }
    i = j + 1;
  }
  return out;
}

// The string a literal argument holds.
std::optional<std::string> string_argument(CXCursor arg) {
  std::optional<std::string> out;
  auto try_literal = [&](CXCursor c) {
    if (clang_getCursorKind(c) != CXCursor_StringLiteral) return false;
    out = unquote(spelling(c));
    return true;
  };
  if (!try_literal(arg)) any_descendant(arg, try_literal);
  return out;
}

// The dispatch key an expression names: c10::DispatchKey::Meta, torch::kMeta, c10::kCUDA.
std::optional<std::string> key_in(CXCursor arg) {
  std::optional<std::string> key;
  auto visit = [&](CXCursor c) {
    if (clang_getCursorKind(c) != CXCursor_DeclRefExpr) return false;
    const CXCursor ref = clang_getCursorReferenced(c);
    const std::string name = spelling(ref);
    if (clang_getCursorKind(ref) == CXCursor_EnumConstantDecl &&
        (parent_name(ref) == "DispatchKey" || parent_name(ref) == "DeviceType")) {
      key = name;
    } else if (clang_getCursorKind(ref) == CXCursor_VarDecl && name.size() > 1 && name[0] == 'k' &&
               std::isupper(static_cast<unsigned char>(name[1])) && enclosing_namespace(ref) == "c10") {
      key = name.substr(1);
    }
    return key.has_value();
  };
  if (!visit(arg)) any_descendant(arg, visit);
  return key;
}

// The kernel an m.impl / m.def argument names: a function of the user's code or a lambda.
std::optional<CXCursor> kernel_in(CXCursor arg) {
  std::optional<CXCursor> found;
  auto visit = [&](CXCursor c) {
    const CXCursorKind kind = clang_getCursorKind(c);
    if (kind == CXCursor_LambdaExpr) { found = c; return true; }
    if (kind != CXCursor_DeclRefExpr) return false;
    const CXCursor ref = clang_getCursorReferenced(c);
    const CXCursorKind ref_kind = clang_getCursorKind(ref);
    if ((ref_kind == CXCursor_FunctionDecl || ref_kind == CXCursor_CXXMethod) && !in_system_header(ref)) {
      found = ref;
      return true;
    }
    return false;
  };
  if (!visit(arg)) any_descendant(arg, visit);
  return found;
}

bool traced_key(std::string_view key) {
  return key == "Meta" || key == "CompositeImplicitAutograd" || key == "CatchAll";
}

// `int64_t`, `const int64_t&`, `std::optional<int64_t>`, `IntArrayRef` as the canonical type
// shows them, so that typedefs and `using` do not hide an int64.
std::string canonical_type(CXType t) {
  if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference) t = clang_getPointeeType(t);
  return take(clang_getTypeSpelling(clang_getCanonicalType(t)));
}
bool is_int64(const std::string& canonical) {
  return canonical == "long" || canonical == "const long" || canonical == "long long" || canonical == "const long long";
}
bool is_optional_int64(const std::string& canonical) {
  return canonical.find("optional<long>") != std::string::npos || canonical.find("optional<long long>") != std::string::npos;
}
bool is_int_list(const std::string& canonical) {
  return canonical.find("ArrayRef<long>") != std::string::npos ||
         canonical.find("vector<long") != std::string::npos;
}

struct Param {
  std::string name;
  CXCursor cursor;
};

std::vector<Param> params_of(CXCursor fn) {
  std::vector<Param> out;
  const CXCursorKind kind = clang_getCursorKind(fn);
  if (kind == CXCursor_LambdaExpr) {
    for (CXCursor c : children(fn))
      if (clang_getCursorKind(c) == CXCursor_ParmDecl) out.push_back({spelling(c), c});
    return out;
  }
  const int n = clang_Cursor_getNumArguments(fn);
  for (int i = 0; i < n; ++i) {
    const CXCursor p = clang_Cursor_getArgument(fn, static_cast<unsigned>(i));
    out.push_back({spelling(p), p});
  }
  return out;
}

struct KernelRef {
  std::string op;
  std::string key;
  CXCursor function;  // FunctionDecl or LambdaExpr; null cursor when unresolved
  std::string name;
  int registration_line = 0;
};

class CppReader {
 public:
  CppReader(std::string_view text, const std::string& display, SourceRead& out)
      : m_text(text), m_lines(text), m_display(display), m_out(out) {}

  void run(CXTranslationUnit tu, const std::string& main_path) {
    m_main = clang_getFile(tu, main_path.c_str());
    collect_blocks(clang_getTranslationUnitCursor(tu), 0);
    for (const KernelRef& k : m_kernels) analyze_kernel(k);
    check_schemas();
    std::sort(m_out.facts.violations.begin(), m_out.facts.violations.end(),
              [](const model::SourcePattern& a, const model::SourcePattern& b) {
                return std::tie(a.line, a.column, a.id) < std::tie(b.line, b.column, b.id);
              });
  }

 private:
  // Where a cursor starts, as the user wrote it: inside a macro, the macro's invocation.
  Place place_of(CXSourceLocation loc) const {
    Place p;
    CXFile file = nullptr;
    unsigned line = 0, column = 0, offset = 0;
    clang_getExpansionLocation(loc, &file, &line, &column, &offset);
    p.line = static_cast<int>(line);
    p.column = static_cast<int>(column);
    p.offset = offset;
    p.in_main = file && m_main && clang_File_isEqual(file, m_main);
    return p;
  }
  Place start_of(CXCursor c) const { return place_of(clang_getRangeStart(clang_getCursorExtent(c))); }
  Place end_of(CXCursor c) const { return place_of(clang_getRangeEnd(clang_getCursorExtent(c))); }

  // ---- registrations ---------------------------------------------------------------------------

  void collect_blocks(CXCursor parent, int depth) {
    if (depth > 32) return;
    for (CXCursor c : children(parent)) {
      const CXCursorKind kind = clang_getCursorKind(c);
      if (kind == CXCursor_Namespace || kind == CXCursor_LinkageSpec) {
        collect_blocks(c, depth + 1);
      } else if (kind == CXCursor_FunctionDecl && clang_isCursorDefinition(c)) {
        const Place p = start_of(c);
        if (!p.in_main) continue;
        if (const auto block = block_at(m_text, p.offset)) collect_registrations(c, *block, 0);
      }
    }
  }

  void collect_registrations(CXCursor c, const Block& block, int depth) {
    if (depth > k_max_ast_depth) return;
    for (CXCursor child : children(c)) {
      if (clang_getCursorKind(child) == CXCursor_CallExpr) {
        const CXCursor callee = callee_of(child);
        const std::string name = spelling(callee);
        if ((name == "def" || name == "impl") && parent_name(callee) == "Library") {
          registration(child, name, block);
          continue;
        }
      }
      collect_registrations(child, block, depth + 1);
    }
  }

  void registration(CXCursor call, const std::string& method, const Block& block) {
    const int n = clang_Cursor_getNumArguments(call);
    if (n < 1) return;
    const Place where = start_of(call);
    const auto first = string_argument(clang_Cursor_getArgument(call, 0));
    if (!first) return;
    std::string op_name;
    if (method == "def") {
      const ParsedSchema schema = parse_schema(*first);
      op_name = qualify(block.ns, schema.name);
      if (first->find('(') != std::string::npos) {
        m_out.facts.ops.push_back({op_name, *first, schema.args, where.line});
        m_schema_literals.push_back({m_out.facts.ops.size() - 1, clang_Cursor_getArgument(call, 0), schema});
      }
      if (n < 2) return;
    } else {
      op_name = qualify(block.ns, *first);
    }
    // Dispatch key: explicit (m.impl("op", torch::kMeta, fn), torch::dispatch(Key, fn)), else the
    // block's; a kernel without one in TORCH_LIBRARY is a catch-all, which registers as CIA.
    std::string key = block.key.empty() ? "CompositeImplicitAutograd" : block.key;
    std::optional<CXCursor> fn;
    for (int i = 1; i < n; ++i) {
      const CXCursor arg = clang_Cursor_getArgument(call, static_cast<unsigned>(i));
      if (const auto k = key_in(arg)) key = *k;
      if (const auto f = kernel_in(arg)) fn = f;
    }
    if (key == "CatchAll") key = "CompositeImplicitAutograd";
    KernelRef ref{op_name, key, fn ? *fn : clang_getNullCursor(), "", where.line};
    if (fn) ref.name = clang_getCursorKind(*fn) == CXCursor_LambdaExpr ? "<lambda>" : spelling(*fn);
    m_kernels.push_back(ref);
  }

  // ---- kernels ---------------------------------------------------------------------------------

  struct Walk {
    const KernelRef* kernel = nullptr;
    std::string function;  // the function being walked (the kernel or a helper)
    std::set<std::string> visited;  // USRs of functions already walked for this kernel
    std::set<std::string>* shape_params = nullptr;  // kernel params used to build a shape
    std::size_t found = 0;
  };

  void analyze_kernel(const KernelRef& k) {
    model::SourceKernel kernel{k.op, k.key, k.name, k.registration_line, 0, 0, traced_key(k.key), true};
    CXCursor body_owner = k.function;
    if (!clang_Cursor_isNull(body_owner) && clang_getCursorKind(body_owner) != CXCursor_LambdaExpr)
      body_owner = clang_getCursorDefinition(body_owner);
    const bool has_body = !clang_Cursor_isNull(body_owner) && start_of(body_owner).in_main;
    if (has_body) {
      kernel.line_begin = start_of(body_owner).line;
      kernel.line_end = end_of(body_owner).line;
    }
    if (kernel.traced && has_body) {
      std::set<std::string> shape_params;
      Walk walk{&k, k.name, {}, &shape_params, 0};
      check_signature(k, body_owner, walk);
      walk.visited.insert(take(clang_getCursorUSR(body_owner)));
      walk_node(body_owner, walk, false, 0);
      m_shape_params[k.op].insert(shape_params.begin(), shape_params.end());
      kernel.symint_aware = walk.found == 0;
    }
    m_out.facts.kernels.push_back(std::move(kernel));
  }

  // C3 / C4: the C++ parameter types against the schema's, position by position (by name when
  // the counts differ).
  void check_signature(const KernelRef& k, CXCursor fn, Walk& walk) {
    const model::SourceOp* op = find_op(k.op);
    if (!op) return;
    const std::vector<Param> params = params_of(fn);
    for (std::size_t i = 0; i < op->args.size(); ++i) {
      const model::SchemaArg& arg = op->args[i];
      const Param* param = nullptr;
      if (params.size() == op->args.size()) param = &params[i];
      else
        for (const Param& p : params)
          if (p.name == arg.name) param = &p;
      if (!param) continue;
      const std::string type = canonical_type(clang_getCursorType(param->cursor));
      const std::string written = take(clang_getTypeSpelling(clang_getCursorType(param->cursor)));
      const char* id = (arg.type == "SymInt" && is_int64(type)) || (arg.type == "SymInt?" && is_optional_int64(type)) ? "C3"
                       : is_symint_list_type(arg.type) && is_int_list(type)                                          ? "C4"
                                                                                                                     : nullptr;
      if (!id) continue;
      model::SourcePattern p = matched(id, PatternForm::int_parameter, param->name);
      p.written_type = written;
      p.schema_type = arg.type;
      report(std::move(p), walk, param->cursor);
    }
  }

  const model::SourceOp* find_op(const std::string& name) const {
    for (const model::SourceOp& op : m_out.facts.ops)
      if (op.name == name) return &op;
    return nullptr;
  }

  static bool is_condition_owner(CXCursorKind kind) {
    return kind == CXCursor_IfStmt || kind == CXCursor_WhileStmt || kind == CXCursor_ForStmt ||
           kind == CXCursor_DoStmt || kind == CXCursor_SwitchStmt || kind == CXCursor_ConditionalOperator;
  }

  // The macro a condition was written in, read at its expansion site.
  std::string_view macro_at(CXCursor c) const {
    const Place p = start_of(c);
    if (!p.in_main || p.offset >= m_text.size()) return {};
    const std::string_view s = m_text.substr(p.offset, 32);
    if (s.starts_with("TORCH_SYM_CHECK")) return "TORCH_SYM_CHECK";
    if (s.starts_with("TORCH_CHECK") || s.starts_with("TORCH_INTERNAL_ASSERT")) return "TORCH_CHECK";
    return {};
  }

  // A condition (if/while/for/?:/TORCH_CHECK) reading sizes: C6 inside TORCH_CHECK, C7 otherwise.
  // True when it reported.
  bool check_condition(CXCursor cond, Walk& walk, bool is_check_macro) {
    if (!any_descendant(cond, is_size_accessor_call) && !is_size_accessor_call(cond)) return false;
    if (is_check_macro) {
      const bool deferred = any_descendant(cond, [](CXCursor c) {
        return clang_getCursorKind(c) == CXCursor_CallExpr && spelling(callee_of(c)) == "expect_true";
      });
      if (deferred) return false;
      report(matched("C6", PatternForm::size_check), walk, cond);
      return true;
    }
    report(matched("C7", PatternForm::size_branch), walk, cond);
    return true;
  }

  void walk_node(CXCursor node, Walk& walk, bool in_check, int depth) {
    if (depth > k_max_ast_depth) return;
    const CXCursorKind kind = clang_getCursorKind(node);
    if (kind == CXCursor_CallExpr) check_call(node, walk);
    else if (kind == CXCursor_VarDecl) check_shape_container(node, walk);
    const std::vector<CXCursor> kids = children(node);
    if (is_condition_owner(kind)) {
      // The condition is the first expression child of if/while/switch/?:, the middle one of for.
      std::vector<CXCursor> exprs;
      for (CXCursor c : kids)
        if (clang_isExpression(clang_getCursorKind(c))) exprs.push_back(c);
      // A for loop's init and increment may hold the size too (`for (i = x.size(0); ...)`).
      if (kind != CXCursor_ForStmt && exprs.size() > 1) exprs.resize(1);
      const std::string_view macro = macro_at(node);
      if (macro != "TORCH_SYM_CHECK")
        for (CXCursor cond : exprs)
          if (check_condition(cond, walk, macro == "TORCH_CHECK")) break;
    } else if (kind == CXCursor_CallExpr && !in_check && spelling(callee_of(node)) == "torch_check" &&
               clang_Cursor_getNumArguments(node) > 0) {
      const std::string_view macro = macro_at(node);
      if (macro != "TORCH_SYM_CHECK") check_condition(clang_Cursor_getArgument(node, 0), walk, true);
      in_check = true;
    }
    for (CXCursor c : kids) walk_node(c, walk, in_check, depth + 1);
  }

  void check_call(CXCursor call, Walk& walk) {
    const CXCursor callee = callee_of(call);
    if (clang_Cursor_isNull(callee)) return;
    const std::string name = spelling(callee);
    if (is_tensor_method(callee)) {
      if (one_of(name, k_concrete_accessors)) {
        size_read(call, walk, name);
      } else if (one_of(name, k_data_accessors)) {
        report(matched("C8", PatternForm::data_read, name), walk, call);
      } else if (one_of(name, k_concrete_tensor_factories)) {
        concrete_factory(call, walk, name, "");
      }
      return;
    }
    const std::string ns = enclosing_namespace(callee);
    if ((ns == "at" || ns == "torch") && one_of(name, k_concrete_factories)) {
      concrete_factory(call, walk, name, ns);
      return;
    }
    // Follow calls into functions this file defines, bounded in depth and once per kernel.
    const CXCursorKind ck = clang_getCursorKind(callee);
    if (ck != CXCursor_FunctionDecl && ck != CXCursor_CXXMethod) return;
    const CXCursor def = clang_getCursorDefinition(callee);
    if (clang_Cursor_isNull(def) || !start_of(def).in_main || in_system_header(def)) return;
    if (m_call_stack.size() >= k_max_call_depth) return;
    if (!walk.visited.insert(take(clang_getCursorUSR(def))).second) return;
    const std::string outer = walk.function;
    walk.function = spelling(def);
    m_call_stack.push_back(walk.function);
    walk_node(def, walk, false, 0);
    m_call_stack.pop_back();
    walk.function = outer;
  }

  // C1: `x.size(0)`; `x.sizes().size()` is the rank read through the sizes.
  void size_read(CXCursor call, Walk& walk, const std::string& name) {
    model::SourcePattern p = matched("C1", PatternForm::size_read, name, call_text(call));
    if (name == "sizes" && !p.matched_text.empty() && m_text.substr(end_of(call).offset, 8).starts_with(".size()"))
      p.form = PatternForm::rank_read;
    report(std::move(p), walk, call);
  }

  // C2: a concrete-int factory, `at::empty(...)` (namespace "at") or `x.new_empty(...)` (namespace "").
  // Shapes made only of literals are static on purpose: not flagged.
  void concrete_factory(CXCursor call, Walk& walk, const std::string& name, const std::string& callee_namespace) {
    if (clang_Cursor_getNumArguments(call) < 1) return;
    const CXCursor shape = clang_Cursor_getArgument(call, 0);
    bool literal_only = true;
    auto note = [&](CXCursor c) {
      const CXCursorKind k = clang_getCursorKind(c);
      if (k == CXCursor_DeclRefExpr) {
        const CXCursor ref = clang_getCursorReferenced(c);
        if (clang_getCursorKind(ref) == CXCursor_ParmDecl && walk.shape_params) walk.shape_params->insert(spelling(ref));
        if (clang_getCursorKind(ref) != CXCursor_EnumConstantDecl) literal_only = false;
      } else if ((k == CXCursor_CallExpr && clang_getCursorKind(callee_of(c)) != CXCursor_Constructor) ||
                 k == CXCursor_MemberRefExpr) {
        literal_only = false;
      }
      return false;
    };
    note(shape);
    any_descendant(shape, note);
    if (literal_only) return;
    model::SourcePattern p = matched("C2", PatternForm::size_factory, name);
    p.callee_namespace = callee_namespace;
    report(std::move(p), walk, call);
  }

  // C2: std::vector<int64_t> / SmallVector<int64_t> built in a traced kernel hold concrete sizes.
  void check_shape_container(CXCursor var, Walk& walk) {
    const std::string type = canonical_type(clang_getCursorType(var));
    if (type.find("vector<long") == std::string::npos && type.find("SmallVector<long") == std::string::npos) return;
    report(matched("C2", PatternForm::size_container, spelling(var)), walk, var);
  }

  // A call as written, when it is short and on one line of the analyzed file; "" otherwise.
  std::string call_text(CXCursor call) const {
    const Place b = start_of(call), e = end_of(call);
    if (b.in_main && e.in_main && b.line == e.line && e.offset > b.offset && e.offset <= m_text.size() &&
        e.offset - b.offset <= k_max_matched_text)
      return std::string(m_text.substr(b.offset, e.offset - b.offset));
    return {};
  }

  // Records pattern `p` (its id, form and what it is about) at `at`, in the function being walked.
  void report(model::SourcePattern p, Walk& walk, CXCursor at) {
    const Place where = start_of(at);
    if (!where.in_main) return;
    ++walk.found;
    // One pattern per place: a helper reached from two kernels is reported once, for the first.
    if (!m_reported.insert({p.id, where.line, where.column}).second) return;
    p.op = walk.kernel ? walk.kernel->op : "";
    p.function = walk.function;
    p.file = m_display;
    p.line = where.line;
    p.column = where.column;
    p.excerpt = m_lines.excerpt(where.line);
    m_out.facts.violations.push_back(std::move(p));
  }

  // ---- schemas ---------------------------------------------------------------------------------

  struct SchemaLiteral {
    std::size_t op;
    CXCursor literal;
    ParsedSchema schema;
  };

  // C5: a schema `int`/`int[]` for a value that is a size (by its name, or because a traced kernel
  // builds a shape from it).
  void check_schemas() {
    for (const SchemaLiteral& s : m_schema_literals) {
      const model::SourceOp& op = m_out.facts.ops[s.op];
      const auto used = m_shape_params.find(op.name);
      for (std::size_t i = 0; i < s.schema.args.size(); ++i) {
        const model::SchemaArg& arg = s.schema.args[i];
        if (!is_concrete_int_type(arg.type)) continue;
        const bool builds_shape = used != m_shape_params.end() && used->second.count(arg.name) > 0;
        if (!names_a_size(arg.name) && !builds_shape) continue;
        report_schema(s, i, op.name);
      }
    }
  }

  // The place of argument `i` inside the schema literal, when the literal is a plain one-line
  // string (no escapes before it); the literal's start otherwise.
  void report_schema(const SchemaLiteral& s, std::size_t i, const std::string& op) {
    CXCursor literal = s.literal;
    if (clang_getCursorKind(literal) != CXCursor_StringLiteral)
      any_descendant(s.literal, [&](CXCursor c) {
        if (clang_getCursorKind(c) != CXCursor_StringLiteral) return false;
        literal = c;
        return true;
      });
    const Place p = start_of(literal);
    if (!p.in_main) return;
    int column = p.column;
    if (p.offset < m_text.size() && m_text[p.offset] == '"') {
      const std::string_view rest = m_text.substr(p.offset + 1, s.schema.arg_offsets[i]);
      if (rest.find_first_of("\\\"\n") == std::string_view::npos)
        column += 1 + static_cast<int>(s.schema.arg_offsets[i]);
    }
    if (!m_reported.insert({"C5", p.line, column}).second) return;
    const model::SchemaArg& arg = s.schema.args[i];
    model::SourcePattern pattern = matched("C5", PatternForm::int_schema_argument, arg.name);
    pattern.schema_type = arg.type;
    pattern.op = op;
    pattern.file = m_display;
    pattern.line = p.line;
    pattern.column = column;
    pattern.excerpt = m_lines.excerpt(p.line);
    m_out.facts.violations.push_back(std::move(pattern));
  }

  CXFile m_main = nullptr;
  std::string_view m_text;
  LineIndex m_lines;
  const std::string& m_display;
  SourceRead& m_out;
  std::vector<KernelRef> m_kernels;
  std::vector<SchemaLiteral> m_schema_literals;
  std::map<std::string, std::set<std::string>> m_shape_params;  // op → params a kernel builds a shape from
  std::set<std::tuple<std::string, int, int>> m_reported;
  std::vector<std::string> m_call_stack;
};

// ---- translation unit ------------------------------------------------------------------------

struct IndexDeleter {
  void operator()(void* index) const { clang_disposeIndex(index); }
};
struct UnitDeleter {
  void operator()(CXTranslationUnitImpl* tu) const { clang_disposeTranslationUnit(tu); }
};

bool has_torch_headers(const std::vector<std::string>& dirs) {
  std::error_code ec;
  return std::any_of(dirs.begin(), dirs.end(), [&](const std::string& d) {
    return std::filesystem::exists(std::filesystem::path(d) / "torch" / "library.h", ec);
  });
}

// The compile command's flags for `file`, without the compiler, the file, and output options.
std::vector<std::string> compile_flags(const std::filesystem::path& database, const std::filesystem::path& file,
                                       std::vector<std::string>& include_dirs) {
  std::vector<std::string> flags;
  const std::filesystem::path dir = std::filesystem::is_directory(database) ? database : database.parent_path();
  CXCompilationDatabase_Error error = CXCompilationDatabase_NoError;
  CXCompilationDatabase db = clang_CompilationDatabase_fromDirectory(dir.c_str(), &error);
  if (error != CXCompilationDatabase_NoError || !db) return flags;
  CXCompileCommands commands = clang_CompilationDatabase_getCompileCommands(db, file.c_str());
  if (commands && clang_CompileCommands_getSize(commands) > 0) {
    CXCompileCommand command = clang_CompileCommands_getCommand(commands, 0);
    const std::string working = take(clang_CompileCommand_getDirectory(command));
    if (!working.empty()) flags.push_back("-working-directory=" + working);
    const unsigned n = clang_CompileCommand_getNumArgs(command);
    for (unsigned i = 1; i < n; ++i) {
      std::string arg = take(clang_CompileCommand_getArg(command, i));
      if (arg == "-c" || arg == file.string() || arg == file.filename().string()) continue;
      if (arg == "-o" || arg == "-MF" || arg == "-MT" || arg == "-MQ") { ++i; continue; }
      if (arg.starts_with("-o") || arg == "-MD" || arg == "-MMD") continue;
      if (arg.starts_with("-I") || arg.starts_with("-isystem")) {
        std::string d = arg.starts_with("-I") ? arg.substr(2) : arg.substr(8);
        if (d.empty() && i + 1 < n) d = take(clang_CompileCommand_getArg(command, i + 1));
        const std::filesystem::path p(d);
        include_dirs.push_back((p.is_relative() ? std::filesystem::path(working) / p : p).string());
      }
      flags.push_back(std::move(arg));
    }
  }
  if (commands) clang_CompileCommands_dispose(commands);
  clang_CompilationDatabase_dispose(db);
  return flags;
}

std::string severity_name(CXDiagnosticSeverity s) { return s == CXDiagnostic_Fatal ? "fatal error" : "error"; }

}  // namespace

Parsed<SourceRead> read_cpp(const std::filesystem::path& path, std::string_view text, const std::string& display,
                            const SourceOptions& options) {
  SourceRead out;
  out.facts.artifact = display;
  out.facts.language = "c++";

  std::error_code ec;
  std::filesystem::path absolute = std::filesystem::absolute(path, ec);
  if (ec) absolute = path;
  const std::string main_path = absolute.string();

  std::vector<std::string> include_dirs = options.include_dirs;
  std::vector<std::string> flags;
  if (options.compile_commands) flags = compile_flags(*options.compile_commands, absolute, include_dirs);
  const bool has_std = std::any_of(flags.begin(), flags.end(), [](const std::string& f) { return f.starts_with("-std="); });
  std::vector<std::string> args = {"-x", "c++", "-w", "-ferror-limit=50"};
  if (!has_std) args.push_back("-std=c++17");
  args.insert(args.end(), flags.begin(), flags.end());
  for (const std::string& d : options.include_dirs) args.push_back("-I" + d);
  // The bundled declarations come last, so real torch headers anywhere on the path win.
  if (!has_torch_headers(include_dirs)) args.push_back(std::string("-idirafter") + k_stub_root);

  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  std::vector<CXUnsavedFile> unsaved;
  unsaved.push_back({main_path.c_str(), text.data(), static_cast<unsigned long>(text.size())});
  for (const StubFile& stub : stub_files())
    unsaved.push_back({stub.path, stub.text.data(), static_cast<unsigned long>(stub.text.size())});

  const std::unique_ptr<void, IndexDeleter> index(clang_createIndex(0, 0));
  CXTranslationUnit raw = nullptr;
  const CXErrorCode code = clang_parseTranslationUnit2(
      index.get(), main_path.c_str(), argv.data(), static_cast<int>(argv.size()), unsaved.data(),
      static_cast<unsigned>(unsaved.size()), CXTranslationUnit_KeepGoing, &raw);
  const std::unique_ptr<CXTranslationUnitImpl, UnitDeleter> tu(raw);
  if (code != CXError_Success || !tu) return fail("libclang could not parse the file (error " + std::to_string(code) + ")");

  // Compile errors do not stop the analysis: what clang recovered is walked; the first errors
  // say what may be missing.
  std::size_t errors = 0;
  const unsigned count = clang_getNumDiagnostics(tu.get());
  for (unsigned i = 0; i < count; ++i) {
    CXDiagnostic d = clang_getDiagnostic(tu.get(), i);
    const CXDiagnosticSeverity severity = clang_getDiagnosticSeverity(d);
    if (severity >= CXDiagnostic_Error && ++errors <= k_max_diagnostics) {
      CXFile file = nullptr;
      unsigned line = 0, column = 0;
      clang_getExpansionLocation(clang_getDiagnosticLocation(d), &file, &line, &column, nullptr);
      const std::string where = file && take(clang_getFileName(file)) != main_path ? take(clang_getFileName(file)) : display;
      out.diagnostics.push_back({display, where + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " +
                                              severity_name(severity) + ": " + take(clang_getDiagnosticSpelling(d))});
    }
    clang_disposeDiagnostic(d);
  }
  if (errors > k_max_diagnostics)
    out.diagnostics.push_back({display, std::to_string(errors - k_max_diagnostics) +
                                            " more compile errors; analyzed what clang recovered"});
  else if (errors > 0)
    out.diagnostics.back().message += " (analyzed what clang recovered)";

  CppReader(text, display, out).run(tu.get(), main_path);
  return out;
}

}  // namespace aoti::parsers::source
