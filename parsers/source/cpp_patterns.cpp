// The C1–C8 patterns of C++ kernels that run on fake tensors (Meta, CompositeImplicitAutograd,
// catch-all): each such kernel, and the same-file functions it calls, is walked for what it does
// with sizes; its signature is compared with the op's schema; schema strings are read for `int`
// sizes. What is matched is recorded as data; the checks say what it means.
#include "parsers/source/cpp_patterns.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "parsers/source/source_text.hpp"

namespace aoti::parsers::source {
namespace {

using model::PatternForm;

constexpr std::size_t k_max_call_depth =
    4;  // helpers followed from a kernel: kernel → a → b → c → d

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
    "item",     "data_ptr",          "const_data_ptr",    "mutable_data_ptr",
    "accessor", "packed_accessor32", "packed_accessor64", "cpu"};
constexpr std::array<std::string_view, 7> k_concrete_factories{
    "empty", "zeros", "ones", "full", "empty_strided", "rand", "randn"};
constexpr std::array<std::string_view, 2> k_concrete_tensor_factories{"new_empty", "new_zeros"};

template <std::size_t N>
bool one_of(std::string_view name, const std::array<std::string_view, N>& set) {
  return std::find(set.begin(), set.end(), name) != set.end();
}

bool is_size_accessor_call(CXCursor c) {
  if (clang_getCursorKind(c) != CXCursor_CallExpr) return false;
  const CXCursor callee = callee_of(c);
  if (!is_tensor_method(callee)) return false;
  const std::string name = spelling(callee);
  return one_of(name, k_concrete_accessors) || one_of(name, k_symbolic_accessors);
}

bool traced_key(std::string_view key) {
  return key == "Meta" || key == "CompositeImplicitAutograd" || key == "CatchAll";
}

// `int64_t`, `const int64_t&`, `std::optional<int64_t>`, `IntArrayRef` as the canonical type
// shows them, so that typedefs and `using` do not hide an int64.
std::string canonical_type(CXType t) {
  if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference)
    t = clang_getPointeeType(t);
  return take(clang_getTypeSpelling(clang_getCanonicalType(t)));
}
bool is_int64(const std::string& canonical) {
  return canonical == "long" || canonical == "const long" || canonical == "long long" ||
         canonical == "const long long";
}
bool is_optional_int64(const std::string& canonical) {
  return canonical.find("optional<long>") != std::string::npos ||
         canonical.find("optional<long long>") != std::string::npos;
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

class PatternFinder {
 public:
  PatternFinder(const MainFile& file, const std::string& display, model::SourceFacts& facts)
      : m_file(file),
        m_text(file.text()),
        m_lines(file.text()),
        m_display(display),
        m_facts(facts) {}

  void run(const CppRegistrations& registrations) {
    for (const KernelRef& k : registrations.kernels) analyze_kernel(k);
    check_schemas(registrations.schema_literals);
  }

 private:
  struct Walk {
    const KernelRef* kernel = nullptr;
    std::string function;           // the function being walked (the kernel or a helper)
    std::set<std::string> visited;  // USRs of functions already walked for this kernel
    std::set<std::string>* shape_params = nullptr;  // kernel params used to build a shape
    std::size_t found = 0;
  };

  void analyze_kernel(const KernelRef& k) {
    model::SourceKernel kernel{k.op, k.key, k.name, k.registration_line, 0, 0, traced_key(k.key),
                               true};
    CXCursor body_owner = k.function;
    if (!clang_Cursor_isNull(body_owner) && clang_getCursorKind(body_owner) != CXCursor_LambdaExpr)
      body_owner = clang_getCursorDefinition(body_owner);
    const bool has_body = !clang_Cursor_isNull(body_owner) && m_file.start_of(body_owner).in_main;
    if (has_body) {
      kernel.line_begin = m_file.start_of(body_owner).line;
      kernel.line_end = m_file.end_of(body_owner).line;
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
    m_facts.kernels.push_back(std::move(kernel));
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
      if (params.size() == op->args.size())
        param = &params[i];
      else
        for (const Param& p : params)
          if (p.name == arg.name) param = &p;
      if (!param) continue;
      const std::string type = canonical_type(clang_getCursorType(param->cursor));
      const std::string written = take(clang_getTypeSpelling(clang_getCursorType(param->cursor)));
      const char* id = (arg.type == "SymInt" && is_int64(type)) ||
                               (arg.type == "SymInt?" && is_optional_int64(type))
                           ? "C3"
                       : is_symint_list_type(arg.type) && is_int_list(type) ? "C4"
                                                                            : nullptr;
      if (!id) continue;
      model::SourcePattern p = matched(id, PatternForm::int_parameter, param->name);
      p.written_type = written;
      p.schema_type = arg.type;
      report(std::move(p), walk, param->cursor);
    }
  }

  const model::SourceOp* find_op(const std::string& name) const {
    for (const model::SourceOp& op : m_facts.ops)
      if (op.name == name) return &op;
    return nullptr;
  }

  static bool is_condition_owner(CXCursorKind kind) {
    return kind == CXCursor_IfStmt || kind == CXCursor_WhileStmt || kind == CXCursor_ForStmt ||
           kind == CXCursor_DoStmt || kind == CXCursor_SwitchStmt ||
           kind == CXCursor_ConditionalOperator;
  }

  // The macro a condition was written in, read at its expansion site.
  std::string_view macro_at(CXCursor c) const {
    const Place p = m_file.start_of(c);
    if (!p.in_main || p.offset >= m_text.size()) return {};
    const std::string_view s = m_text.substr(p.offset, 32);
    if (s.starts_with("TORCH_SYM_CHECK")) return "TORCH_SYM_CHECK";
    if (s.starts_with("TORCH_CHECK") || s.starts_with("TORCH_INTERNAL_ASSERT"))
      return "TORCH_CHECK";
    return {};
  }

  // A condition (if/while/for/?:/TORCH_CHECK) reading sizes: C6 inside TORCH_CHECK, C7 otherwise.
  // True when it reported.
  bool check_condition(CXCursor cond, Walk& walk, bool is_check_macro) {
    if (!any_descendant(cond, is_size_accessor_call) && !is_size_accessor_call(cond)) return false;
    if (is_check_macro) {
      const bool deferred = any_descendant(cond, [](CXCursor c) {
        return clang_getCursorKind(c) == CXCursor_CallExpr &&
               spelling(callee_of(c)) == "expect_true";
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
    if (kind == CXCursor_CallExpr)
      check_call(node, walk);
    else if (kind == CXCursor_VarDecl)
      check_shape_container(node, walk);
    const std::vector<CXCursor> kids = children(node);
    if (is_condition_owner(kind)) {
      // The condition is the first expression child of if/while/switch/?:, the middle one of for.
      std::vector<CXCursor> exprs;
      for (CXCursor c : kids)
        if (clang_isExpression(clang_getCursorKind(c))) exprs.push_back(c);
      // A for loop's init and increment may hold the size too (`for (i = x.size(0); ...)`).
      // (erase, not resize(1): GCC 12 -Warray-bounds misreads a shrinking resize)
      if (kind != CXCursor_ForStmt && exprs.size() > 1) exprs.erase(exprs.begin() + 1, exprs.end());
      const std::string_view macro = macro_at(node);
      if (macro != "TORCH_SYM_CHECK")
        for (CXCursor cond : exprs)
          if (check_condition(cond, walk, macro == "TORCH_CHECK")) break;
    } else if (kind == CXCursor_CallExpr && !in_check &&
               spelling(callee_of(node)) == "torch_check" &&
               clang_Cursor_getNumArguments(node) > 0) {
      const std::string_view macro = macro_at(node);
      if (macro != "TORCH_SYM_CHECK")
        check_condition(clang_Cursor_getArgument(node, 0), walk, true);
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
    if (clang_Cursor_isNull(def) || !m_file.start_of(def).in_main || in_system_header(def)) return;
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
    if (name == "sizes" && !p.matched_text.empty() &&
        m_text.substr(m_file.end_of(call).offset, 8).starts_with(".size()"))
      p.form = PatternForm::rank_read;
    report(std::move(p), walk, call);
  }

  // C2: a concrete-int factory, `at::empty(...)` (namespace "at") or `x.new_empty(...)` (namespace
  // ""). Shapes made only of literals are static on purpose: not flagged.
  void concrete_factory(CXCursor call, Walk& walk, const std::string& name,
                        const std::string& callee_namespace) {
    if (clang_Cursor_getNumArguments(call) < 1) return;
    const CXCursor shape = clang_Cursor_getArgument(call, 0);
    bool literal_only = true;
    auto note = [&](CXCursor c) {
      const CXCursorKind k = clang_getCursorKind(c);
      if (k == CXCursor_DeclRefExpr) {
        const CXCursor ref = clang_getCursorReferenced(c);
        if (clang_getCursorKind(ref) == CXCursor_ParmDecl && walk.shape_params)
          walk.shape_params->insert(spelling(ref));
        if (clang_getCursorKind(ref) != CXCursor_EnumConstantDecl) literal_only = false;
      } else if ((k == CXCursor_CallExpr &&
                  clang_getCursorKind(callee_of(c)) != CXCursor_Constructor) ||
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
    if (type.find("vector<long") == std::string::npos &&
        type.find("SmallVector<long") == std::string::npos)
      return;
    report(matched("C2", PatternForm::size_container, spelling(var)), walk, var);
  }

  // A call as written, when it is short and on one line of the analyzed file; "" otherwise.
  std::string call_text(CXCursor call) const {
    const Place b = m_file.start_of(call), e = m_file.end_of(call);
    if (b.in_main && e.in_main && b.line == e.line && e.offset > b.offset &&
        e.offset <= m_text.size() && e.offset - b.offset <= k_max_matched_text)
      return std::string(m_text.substr(b.offset, e.offset - b.offset));
    return {};
  }

  // Records pattern `p` (its id, form and what it is about) at `at`, in the function being walked.
  void report(model::SourcePattern p, Walk& walk, CXCursor at) {
    const Place where = m_file.start_of(at);
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
    m_facts.violations.push_back(std::move(p));
  }

  // ---- schemas ---------------------------------------------------------------------------------

  // C5: a schema `int`/`int[]` for a value that is a size (by its name, or because a traced kernel
  // builds a shape from it).
  void check_schemas(const std::vector<SchemaLiteral>& literals) {
    for (const SchemaLiteral& s : literals) {
      const model::SourceOp& op = m_facts.ops[s.op];
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
    const Place p = m_file.start_of(literal);
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
    m_facts.violations.push_back(std::move(pattern));
  }

  const MainFile& m_file;
  std::string_view m_text;
  LineIndex m_lines;
  const std::string& m_display;
  model::SourceFacts& m_facts;
  std::map<std::string, std::set<std::string>>
      m_shape_params;  // op → params a kernel builds a shape from
  std::set<std::tuple<std::string, int, int>> m_reported;
  std::vector<std::string> m_call_stack;
};

}  // namespace

void find_cpp_patterns(const CppRegistrations& registrations, const MainFile& file,
                       const std::string& display, model::SourceFacts& facts) {
  PatternFinder(file, display, facts).run(registrations);
}

}  // namespace aoti::parsers::source
