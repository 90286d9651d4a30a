// The C1–C8 patterns of C++ kernels that run on fake tensors (Meta, CompositeImplicitAutograd,
// catch-all): each such kernel, and the same-file functions it calls, is walked for what it does
// with sizes, following which values hold sizes (read from a tensor, or passed in an integer
// parameter) into locals, containers and factories; its parameters are recorded for the checks,
// which pair them with the op's schema wherever it is; schema strings are read for `int` sizes.
// What is matched is recorded as data; the checks say what it means.
#include "parsers/source/cpp_patterns.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "parsers/source/source_text.hpp"
#include "torch/schema_types.hpp"

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

// The canonical type without references and top-level const, so that typedefs and `using` do
// not hide an int64: "long", "std::optional<long>", "c10::ArrayRef<long>".
std::string canonical_type(CXType t) {
  if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference)
    t = clang_getPointeeType(t);
  std::string out = take(clang_getTypeSpelling(clang_getCanonicalType(t)));
  if (out.starts_with("const ")) out.erase(0, 6);
  return out;
}

// The one template argument of `type` when it is `<prefix><...>`, e.g. "long" of
// "std::vector<long>" for prefix "std::vector<"; "" otherwise. An allocator argument is ignored.
std::string_view template_argument(std::string_view type, std::string_view prefix) {
  const std::size_t at = type.find(prefix);
  if (at == std::string_view::npos || type.back() != '>') return {};
  std::string_view inner = type.substr(at + prefix.size());
  inner.remove_suffix(1);
  if (const std::size_t comma = inner.find(", std::allocator"); comma != std::string_view::npos)
    inner = inner.substr(0, comma);
  return inner;
}

bool is_int64_name(std::string_view t) { return t == "long" || t == "long long"; }
bool is_symint_name(std::string_view t) { return t == "c10::SymInt"; }

model::ParamKind param_kind(CXType type) {
  using model::ParamKind;
  const std::string t = canonical_type(type);
  if (is_int64_name(t)) return ParamKind::concrete_int;
  if (is_symint_name(t)) return ParamKind::symbolic;
  for (std::string_view optional : {"std::optional<", "c10::optional<"}) {
    const std::string_view arg = template_argument(t, optional);
    if (is_int64_name(arg)) return ParamKind::optional_concrete_int;
    if (is_symint_name(arg)) return ParamKind::symbolic;
  }
  for (std::string_view list : {"c10::ArrayRef<", "std::vector<", "c10::SmallVector<"}) {
    std::string_view arg = template_argument(t, list);
    if (const std::size_t comma = arg.find(','); comma != std::string_view::npos)
      arg = arg.substr(0, comma);  // SmallVector<long, 5>
    if (is_int64_name(arg)) return ParamKind::concrete_int_list;
    if (is_symint_name(arg)) return ParamKind::symbolic;
  }
  return ParamKind::other;
}

// Integer types a size can be kept in (int, int32_t, int64_t, size_t...), canonically spelled.
bool is_integer_type(const std::string& canonical) {
  static constexpr std::array<std::string_view, 10> k_names{
      "int",          "long",          "long long",          "short",
      "unsigned int", "unsigned long", "unsigned long long", "unsigned short",
      "char",         "signed char"};
  return one_of(canonical, k_names);
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

// Where a value's size-ness comes from: a tensor size read, and/or integer parameters of the
// kernel (whose schema decides whether they are sizes).
struct Taint {
  bool size_read = false;
  std::set<std::string> params;
  bool any() const { return size_read || !params.empty(); }
  void merge(const Taint& other) {
    size_read = size_read || other.size_read;
    params.insert(other.params.begin(), other.params.end());
  }
};

// Calls that give a container's length or rank, not what it holds: `sizes.size()`, `v.empty()`.
bool is_length_call(CXCursor call) {
  const CXCursor callee = callee_of(call);
  if (clang_getCursorKind(callee) != CXCursor_CXXMethod) return false;
  const std::string name = spelling(callee);
  if (name != "size" && name != "empty" && name != "dim") return false;
  const std::string cls = parent_name(callee);
  return cls != "Tensor" && cls != "TensorBase";
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
  // A container declared in the walk that has not been seen to hold a size yet: reported at its
  // declaration once one flows into it.
  struct PendingContainer {
    CXCursor declaration;
    std::string function;
  };

  // An integer local holding only a parameter's value (`int64_t n = total_L.value();`).
  struct ParamLocal {
    CXCursor declaration;
    std::string function;
    Taint taint;
  };

  struct Walk {
    const KernelRef* kernel = nullptr;
    std::string function;                // the function being walked (the kernel or a helper)
    std::set<std::string> visited;       // USRs of functions already walked for this kernel
    std::map<std::string, Taint> taint;  // USR of a local or parameter → where its size comes from
    std::map<std::string, PendingContainer> containers;  // USR → an int64 container not yet a size
    std::set<std::string> shape_params;  // kernel parameters a flagged shape is built from
    std::vector<ParamLocal> param_locals;
    std::size_t found = 0;
  };

  void analyze_kernel(const KernelRef& k) {
    model::SourceKernel kernel{k.op, k.key, k.name, k.registration_line, 0, 0, traced_key(k.key),
                               true, {}};
    CXCursor body_owner = k.function;
    if (!clang_Cursor_isNull(body_owner) && clang_getCursorKind(body_owner) != CXCursor_LambdaExpr)
      body_owner = clang_getCursorDefinition(body_owner);
    const bool has_body = !clang_Cursor_isNull(body_owner) && m_file.start_of(body_owner).in_main;
    if (has_body) {
      kernel.line_begin = m_file.start_of(body_owner).line;
      kernel.line_end = m_file.end_of(body_owner).line;
    }
    if (kernel.traced && has_body) {
      Walk walk{&k, k.name, {}, {}, {}, {}, {}, 0};
      const std::vector<Param> params = params_of(body_owner);
      for (const Param& p : params) {
        const model::ParamKind kind = param_kind(clang_getCursorType(p.cursor));
        const std::string usr = take(clang_getCursorUSR(p.cursor));
        if (kind != model::ParamKind::other && !usr.empty()) walk.taint[usr].params.insert(p.name);
      }
      walk.visited.insert(take(clang_getCursorUSR(body_owner)));
      walk_node(body_owner, walk, false, 0);
      finish_size_locals(walk);
      kernel.symint_aware = walk.found == 0;
      for (const Param& p : params) kernel.params.push_back(param_fact(p, walk));
    }
    m_facts.kernels.push_back(std::move(kernel));
  }

  model::KernelParam param_fact(const Param& p, const Walk& walk) const {
    const Place where = m_file.start_of(p.cursor);
    model::KernelParam out;
    out.name = p.name;
    out.written_type = take(clang_getTypeSpelling(clang_getCursorType(p.cursor)));
    out.kind = param_kind(clang_getCursorType(p.cursor));
    if (where.in_main) {
      out.line = where.line;
      out.column = where.column;
      out.excerpt = m_lines.excerpt(where.line);
    }
    out.builds_shape = walk.shape_params.count(p.name) > 0;
    return out;
  }

  // ---- which values hold sizes -----------------------------------------------------------------

  // Where the value of `expr` gets its size-ness: tensor size reads in it, and the locals and
  // parameters it reads that hold sizes. A container's length (`sizes.size()`) is not a size.
  Taint taint_of(CXCursor expr, const Walk& walk) const {
    Taint t;
    auto visit = [&](auto& self, CXCursor c, int depth) -> void {
      if (depth > k_max_ast_depth) return;
      const CXCursorKind kind = clang_getCursorKind(c);
      if (kind == CXCursor_CallExpr) {
        if (is_length_call(c)) return;
        if (is_size_accessor_call(c)) t.size_read = true;
      } else if (kind == CXCursor_DeclRefExpr) {
        const auto it = walk.taint.find(take(clang_getCursorUSR(clang_getCursorReferenced(c))));
        if (it != walk.taint.end()) t.merge(it->second);
      }
      for (CXCursor child : children(c)) self(self, child, depth + 1);
    };
    visit(visit, expr, 0);
    return t;
  }

  // The local a write goes to: `v` of `v = ...`, `v[i] = ...`, `v.push_back(...)`; "" otherwise.
  static std::string written_local(CXCursor target) {
    for (int depth = 0; depth < 8; ++depth) {
      const CXCursorKind kind = clang_getCursorKind(target);
      if (kind == CXCursor_DeclRefExpr) {
        const CXCursor ref = clang_getCursorReferenced(target);
        return clang_getCursorKind(ref) == CXCursor_VarDecl ? take(clang_getCursorUSR(ref)) : "";
      }
      const std::vector<CXCursor> kids = children(target);
      if (kids.empty()) return {};
      target = kids.front();  // the object of a member call, subscript or implicit cast
    }
    return {};
  }

  // A size flowing into local `usr`: its taint grows, and a pending int64 container becomes C2.
  void taint_local(const std::string& usr, const Taint& t, Walk& walk) {
    if (usr.empty() || !t.any()) return;
    walk.taint[usr].merge(t);
    const auto pending = walk.containers.find(usr);
    if (pending == walk.containers.end()) return;
    const PendingContainer container = pending->second;
    walk.containers.erase(pending);
    const std::string outer = walk.function;
    walk.function = container.function;
    model::SourcePattern p =
        matched("C2", PatternForm::size_container, spelling(container.declaration));
    report(std::move(p), walk, container.declaration, walk.taint[usr]);
    walk.function = outer;
  }

  // Declarations, assignments and container fills move sizes between locals.
  void track_flow(CXCursor node, Walk& walk) {
    const CXCursorKind kind = clang_getCursorKind(node);
    if (kind == CXCursor_VarDecl) {
      const std::string usr = take(clang_getCursorUSR(node));
      Taint init;
      for (CXCursor c : children(node))
        if (clang_isExpression(clang_getCursorKind(c))) init.merge(taint_of(c, walk));
      check_size_local(node, init, walk);
      if (is_int64_container(node)) walk.containers[usr] = {node, walk.function};
      taint_local(usr, init, walk);
    } else if (kind == CXCursor_BinaryOperator || kind == CXCursor_CompoundAssignOperator) {
      const CX_BinaryOperatorKind op = clang_Cursor_getBinaryOpcode(node);
      if (op < CX_BO_Assign || op > CX_BO_OrAssign) return;
      const std::vector<CXCursor> kids = children(node);
      if (kids.size() == 2) taint_local(written_local(kids[0]), taint_of(kids[1], walk), walk);
    } else if (kind == CXCursor_CallExpr) {
      const std::string name = spelling(callee_of(node));
      if (name != "push_back" && name != "emplace_back" && name != "insert" && name != "assign" &&
          name != "append" && name != "operator=")
        return;
      const std::vector<CXCursor> kids = children(node);
      if (kids.empty()) return;
      Taint args;
      for (std::size_t i = 1; i < kids.size(); ++i) args.merge(taint_of(kids[i], walk));
      taint_local(written_local(kids[0]), args, walk);
    }
  }

  static bool is_int64_container(CXCursor var) {
    const std::string type = canonical_type(clang_getCursorType(var));
    return type.find("vector<long") != std::string::npos ||
           type.find("SmallVector<long") != std::string::npos;
  }

  // C2: a size kept in an integer local (`const int ncols = sizes[1];`), reported where no size
  // read on the same line says it already (C1 covers `int n = x.size(0);`). One holding only an
  // integer parameter is a size when the output shape is built from that parameter: decided at the
  // end of the kernel (finish_size_locals). A declaration clang could not type (an unknown enum
  // of a missing header reads as int) is not an integer.
  void check_size_local(CXCursor var, const Taint& init, Walk& walk) {
    if (!init.any() || clang_isInvalidDeclaration(var)) return;
    const std::string type = canonical_type(clang_getCursorType(var));
    if (!is_integer_type(type)) return;
    const Place where = m_file.start_of(var);
    if (!where.in_main) return;
    bool reads_here = false;
    any_descendant(var, [&](CXCursor c) {
      reads_here = reads_here || is_size_accessor_call(c);
      return reads_here;
    });
    if (reads_here) return;
    if (!init.size_read) {
      walk.param_locals.push_back({var, walk.function, init});
      return;
    }
    report_size_local(var, walk, init);
  }

  void report_size_local(CXCursor var, Walk& walk, const Taint& init) {
    model::SourcePattern p = matched("C2", PatternForm::size_local, spelling(var));
    p.written_type = take(clang_getTypeSpelling(clang_getCursorType(var)));
    report(std::move(p), walk, var, init);
  }

  void finish_size_locals(Walk& walk) {
    for (const ParamLocal& local : walk.param_locals) {
      if (std::none_of(local.taint.params.begin(), local.taint.params.end(),
                       [&](const std::string& p) { return walk.shape_params.count(p) > 0; }))
        continue;
      const std::string outer = walk.function;
      walk.function = local.function;
      report_size_local(local.declaration, walk, local.taint);
      walk.function = outer;
    }
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
    track_flow(node, walk);
    if (kind == CXCursor_CallExpr) check_call(node, walk);
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
  // ""), whose shape holds a size. A shape of literals, or of counts that are not sizes (a list's
  // length, an enum), is concrete on purpose: not flagged.
  void concrete_factory(CXCursor call, Walk& walk, const std::string& name,
                        const std::string& callee_namespace) {
    if (clang_Cursor_getNumArguments(call) < 1) return;
    const Taint shape = taint_of(clang_Cursor_getArgument(call, 0), walk);
    if (!shape.any()) return;
    model::SourcePattern p = matched("C2", PatternForm::size_factory, name);
    p.callee_namespace = callee_namespace;
    walk.shape_params.insert(shape.params.begin(), shape.params.end());
    report(std::move(p), walk, call, shape);
  }

  // A call as written, when it is short and on one line of the analyzed file; "" otherwise.
  std::string call_text(CXCursor call) const {
    const Place b = m_file.start_of(call), e = m_file.end_of(call);
    if (b.in_main && e.in_main && b.line == e.line && e.offset > b.offset &&
        e.offset <= m_text.size() && e.offset - b.offset <= k_max_matched_text)
      return std::string(m_text.substr(b.offset, e.offset - b.offset));
    return {};
  }

  // Records pattern `p` (its id, form and what it is about) at `at`, in the function being walked;
  // `taint` says where the size in it comes from, when that is only the kernel's parameters.
  void report(model::SourcePattern p, Walk& walk, CXCursor at, const Taint& taint = {true, {}}) {
    const Place where = m_file.start_of(at);
    if (!where.in_main) return;
    if (!taint.size_read) p.via_parameters.assign(taint.params.begin(), taint.params.end());
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

  // C5: a schema `int`/`int[]` for an argument torch itself types SymInt (`output_size`,
  // `split_sizes`). Other ints may be concrete by design (a block size, a quantization shape):
  // the schema is the contract, and nothing in the source says what callers pass.
  void check_schemas(const std::vector<SchemaLiteral>& literals) {
    for (const SchemaLiteral& s : literals) {
      const model::SourceOp& op = m_facts.ops[s.op];
      for (std::size_t i = 0; i < s.schema.args.size(); ++i) {
        const model::SchemaArg& arg = s.schema.args[i];
        if (torch::is_concrete_int_type(arg.type) && torch::is_symbolic_size_name(arg.name))
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
  std::set<std::tuple<std::string, int, int>> m_reported;
  std::vector<std::string> m_call_stack;
};

}  // namespace

void find_cpp_patterns(const CppRegistrations& registrations, const MainFile& file,
                       const std::string& display, model::SourceFacts& facts) {
  PatternFinder(file, display, facts).run(registrations);
}

}  // namespace aoti::parsers::source
