// The P patterns of failure-modes.md §1.3 in the kernels that run on fake tensors (Fake, Meta,
// CompositeImplicitAutograd): a size read into a Python number or a branch, a hard-coded shape or
// device, data access, an aliased or ignored input. What is matched is recorded as data; the
// checks say what it means.
#include "parsers/source/python_patterns.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

#include "parsers/source/python_walk.hpp"
#include "parsers/source/source_text.hpp"
#include "torch/schema_types.hpp"

namespace aoti::parsers::source {
namespace {

using model::PatternForm;
using py::Expr;
using py::Stmt;
using Kind = Expr::Kind;

constexpr std::array<std::string_view, 3> k_traced_keys{"Fake", "Meta",
                                                        "CompositeImplicitAutograd"};
constexpr std::array<std::string_view, 12> k_factories{
    "empty",         "zeros",     "ones",      "full",     "rand",     "randn",
    "empty_strided", "new_empty", "new_zeros", "new_ones", "new_full", "randint"};
constexpr std::array<std::string_view, 5> k_data_methods{"item", "tolist", "numpy", "data_ptr",
                                                         "untyped_storage"};
constexpr std::array<std::string_view, 12> k_boolean_operators{
    "<", ">", "<=", ">=", "==", "!=", "and", "or", "in", "not in", "is", "is not"};
constexpr int k_max_call_depth = 4;  // helpers followed from a kernel, calls deep
constexpr std::array<std::string_view, 10> k_size_oblivious{"guard_size_oblivious",
                                                            "statically_known_true",
                                                            "guard_or_false",
                                                            "guard_or_true",
                                                            "definitely_true",
                                                            "definitely_false",
                                                            "expect_true",
                                                            "isinstance",
                                                            "sym_max",
                                                            "sym_min"};
constexpr std::array<std::string_view, 6> k_data_dependent_words{
    "nonzero", "unique", "masked_select", "compact", "filter", "dynamic"};

class PatternFinder {
 public:
  PatternFinder(std::string_view text, const std::string& display,
                const std::map<std::string, const Stmt*>& functions, model::SourceFacts& facts)
      : m_text(text), m_lines(text), m_display(display), m_functions(functions), m_facts(facts) {}

  // The P patterns in a traced kernel's body; how many it found (0: the kernel is SymInt-aware).
  std::size_t analyze(const PythonKernel& k) {
    std::set<const Stmt*> followed{k.def};
    Scope scope;
    scope.kernel = &k;
    scope.def = k.def;
    scope.function = k.function;
    scope.followed = &followed;
    const model::SourceOp* op = nullptr;
    for (const model::SourceOp& o : m_facts.ops)
      if (o.name == k.op) op = &o;
    for (const py::Param& p : k.def->params) {
      std::string schema_type;
      if (op)
        for (const model::SchemaArg& a : op->args)
          if (a.name == p.name) schema_type = a.type;
      bind_parameter(p, schema_type, scope);
    }
    each_stmt(k.def->body, [&](const Stmt& s) { bind_locals(s, scope); });
    walk(k.def->body, scope, 0);
    unused_parameters(k, scope);
    data_dependent_output(k, scope);
    return scope.found;
  }

  // C5 applies to schema strings in any language: an `int` for an argument torch itself types
  // SymInt (`output_size`, `split_sizes`); other ints may be concrete by design (a block size).
  void check_schema(const SchemaString& s) {
    const Expr& literal = *s.literal;
    const ParsedSchema& parsed = s.schema;
    for (std::size_t i = 0; i < parsed.args.size(); ++i) {
      const model::SchemaArg& arg = parsed.args[i];
      if (!torch::is_concrete_int_type(arg.type) || !torch::is_symbolic_size_name(arg.name))
        continue;
      int column = literal.column;
      const std::string_view raw =
          std::string_view(m_text).substr(literal.begin, literal.end - literal.begin);
      const std::size_t quote = raw.find_first_of("'\"");
      if (quote != std::string_view::npos && raw.find_first_of("\\\n") == std::string_view::npos &&
          raw.substr(quote, 3) != std::string(3, raw[quote]))
        column += static_cast<int>(quote + 1 + parsed.arg_offsets[i]);
      model::SourcePattern pattern = matched("C5", PatternForm::int_schema_argument, arg.name);
      pattern.schema_type = arg.type;
      pattern.op = s.op;
      report(std::move(pattern), literal.line, column);
    }
  }

 private:
  struct Scope {
    const PythonKernel* kernel = nullptr;
    const Stmt* def = nullptr;                  // the kernel's def, or the helper's it calls
    std::string function;                       // its name, what patterns found in it name
    std::set<const Stmt*>* followed = nullptr;  // the helpers walked for this kernel
    int call_depth = 0;
    std::set<std::string> unknown;  // untyped parameters taken for tensors: len() is conditional
    std::set<std::string> tensors;  // tensor parameters and tensors derived from them
    std::set<std::string> sizes;    // SymInt parameters and names bound to sizes
    std::set<std::string> locals;   // every name the function binds
    std::size_t found = 0;
  };

  // What a parameter holds, by its annotation or else its schema type: `int`, `Optional[int]`,
  // `int | None`, `SymInt` are sizes; `Tensor`, `Optional[Tensor]` tensors; lists of either
  // neither (their len() is a list length). Untyped ones are taken for tensors.
  static void bind_parameter(const py::Param& p, const std::string& schema_type, Scope& scope) {
    scope.locals.insert(p.name);
    if (p.variadic || p.name == "ctx" || p.name == "self") return;
    std::string t;
    for (char c : p.annotation)
      if (c != ' ') t += c;
    for (const std::string_view prefix : {"typing.", "torch.", "c10."})
      for (std::size_t at = t.find(prefix); at != std::string::npos; at = t.find(prefix))
        t.erase(at, prefix.size());
    if (t.starts_with("Optional[") && t.ends_with("]")) t = t.substr(9, t.size() - 10);
    if (t.ends_with("|None")) t.resize(t.size() - 5);
    if (t.starts_with("None|")) t.erase(0, 5);
    std::string schema = schema_type;
    if (schema.ends_with("?")) schema.pop_back();
    if (t == "int" || t == "SymInt" || (t.empty() && (schema == "int" || schema == "SymInt")))
      scope.sizes.insert(p.name);
    else if (t == "Tensor" || (t.empty() && schema == "Tensor"))
      scope.tensors.insert(p.name);
    else if (t.empty() && schema.empty())
      scope.tensors.insert(p.name), scope.unknown.insert(p.name);
  }

  static void names_in_target(const Expr& target, std::set<std::string>& out) {
    each_expr(target, [&](const Expr& e) {
      if (e.kind == Kind::name) out.insert(e.text);
    });
  }

  void bind_locals(const Stmt& s, Scope& scope) const {
    if (s.kind == Stmt::Kind::assign)
      for (std::size_t i = 0; i + 1 < s.exprs.size(); ++i)
        names_in_target(*s.exprs[i], scope.locals);
    if (s.kind == Stmt::Kind::for_ && !s.exprs.empty()) names_in_target(*s.exprs[0], scope.locals);
    if (s.kind == Stmt::Kind::def || s.kind == Stmt::Kind::cls) scope.locals.insert(s.name);
    if (s.kind == Stmt::Kind::with)
      for (const auto& e : s.exprs) names_in_target(*e, scope.locals);
    for (const auto& e : s.exprs)  // comprehension variables
      each_expr(*e, [&](const Expr& x) {
        if (x.kind == Kind::other && x.text == "for" && !x.items.empty())
          names_in_target(*x.items[0], scope.locals);
      });
  }

  // A size: x.shape[i], x.shape, x.size(...), x.numel(), x.stride(i), a SymInt parameter or a name
  // bound to a size. Ranks (x.dim(), x.ndim, len(x.shape)) are static and do not count.
  bool is_size(const Expr& e, const Scope& scope) const {
    if (e.kind == Kind::name) return scope.sizes.count(e.text) > 0;
    if (e.kind == Kind::attribute) return e.text == "shape";
    if (e.kind == Kind::subscript)
      return !e.items.empty() && e.items[0]->kind == Kind::attribute && e.items[0]->text == "shape";
    if (e.kind == Kind::call) {
      const Expr* f = call_func(e);
      if (f->kind == Kind::attribute)
        return f->text == "size" || f->text == "numel" || f->text == "stride" ||
               f->text == "sym_size" || f->text == "sym_numel";
      if (f->kind == Kind::name && f->text == "len" && e.items.size() == 2)
        return e.items[1]->kind == Kind::name && scope.tensors.count(e.items[1]->text) > 0;
    }
    return false;
  }

  bool involves_size(const Expr& e, const Scope& scope, int depth = 0) const {
    if (depth > k_max_walk_depth) return false;
    if (e.kind == Kind::call && call_func(e)->kind == Kind::name && call_func(e)->text == "len" &&
        e.items.size() == 2 && e.items[1]->kind == Kind::attribute && e.items[1]->text == "shape")
      return false;  // len(x.shape) is the rank
    // `x is None` asks which argument was passed; guard_size_oblivious(...) and its kin are the
    // SymInt-aware way to ask about a size; isinstance() about a type.
    if (e.kind == Kind::binary && (e.text == "is" || e.text == "is not")) return false;
    if (const Expr* f = call_func(e); f && one_of(last_part(dotted(*f)), k_size_oblivious))
      return false;
    if (is_size(e, scope)) return true;
    if (e.kind == Kind::lambda) return false;
    for (const auto& item : e.items)
      if (involves_size(*item, scope, depth + 1)) return true;
    return false;
  }

  // The root name of an attribute / call / subscript chain: `x` of x.float().sum().
  static const Expr* root_of(const Expr& e) {
    const Expr* r = &e;
    while ((r->kind == Kind::attribute || r->kind == Kind::call || r->kind == Kind::subscript) &&
           !r->items.empty())
      r = r->items[0].get();
    return r->kind == Kind::name ? r : nullptr;
  }

  bool is_tensor(const Expr& e, const Scope& scope) const {
    const Expr* r = root_of(e);
    return r && scope.tensors.count(r->text) > 0 && !involves_size(e, scope);
  }

  void walk(const std::vector<py::StmtPtr>& body, Scope& scope, int depth) {
    if (depth > k_max_walk_depth) return;
    for (const auto& sp : body) {
      const Stmt& s = *sp;
      if (s.kind == Stmt::Kind::def || s.kind == Stmt::Kind::cls)
        continue;  // nested defs run elsewhere
      if ((s.kind == Stmt::Kind::if_ || s.kind == Stmt::Kind::while_) && !s.exprs.empty() &&
          involves_size(*s.exprs[0], scope)) {
        report_at(matched("P1", PatternForm::size_branch, "", matched_text(*s.exprs[0])), scope,
                  *s.exprs[0]);
      }
      if (s.kind == Stmt::Kind::assert_ && !s.exprs.empty() && involves_size(*s.exprs[0], scope)) {
        report_at(matched("P1", PatternForm::size_assert, "", matched_text(*s.exprs[0])), scope,
                  *s.exprs[0]);
      }
      if (s.kind == Stmt::Kind::return_ && !s.exprs.empty()) aliasing(*s.exprs[0], scope);
      for (const auto& e : s.exprs) expression_rules(*e, scope);
      if (s.kind == Stmt::Kind::assign && s.exprs.size() >= 2) bind(s, scope);
      walk(s.body, scope, depth + 1);
    }
  }

  // A call of a module function whose every return is a number literal (round_up_headdim): the
  // value is a Python int; the guards were taken inside, where the helper is walked.
  bool returns_literals(const Expr& value) const {
    const Expr* f = call_func(value);
    const auto it = f && f->kind == Kind::name ? m_functions.find(f->text) : m_functions.end();
    if (it == m_functions.end()) return false;
    bool any = false, all = true;
    each_stmt(it->second->body, [&](const Stmt& s) {
      if (s.kind != Stmt::Kind::return_) return;
      any = true;
      all = all && !s.exprs.empty() && s.exprs[0]->kind == Kind::number;
    });
    return any && all;
  }

  // Names bound to sizes become sizes; to tensors (not sizes) become tensors.
  void bind(const Stmt& s, Scope& scope) const {
    const Expr& value = *s.exprs.back();
    // A comparison's result is a bool: the guard was taken where it was made to one.
    const bool boolean = (value.kind == Kind::binary && one_of(value.text, k_boolean_operators)) ||
                         (value.kind == Kind::unary && value.text == "not");
    const bool size = !boolean && !returns_literals(value) && involves_size(value, scope) &&
                      !any_expr(value, [](const Expr& e) {
                        const Expr* f = call_func(e);
                        return f && one_of(last_part(dotted(*f)), k_factories);
                      });
    const bool tensor = !size && is_tensor(value, scope);
    for (std::size_t i = 0; i + 1 < s.exprs.size(); ++i) {
      std::set<std::string> names;
      names_in_target(*s.exprs[i], names);
      for (const std::string& n : names) {
        if (size) scope.sizes.insert(n);
        if (tensor) scope.tensors.insert(n);
      }
    }
  }

  void expression_rules(const Expr& root, Scope& scope) {
    each_expr(root, [&](const Expr& e) {
      if (e.kind == Kind::ifexp && !e.items.empty() && involves_size(*e.items[0], scope))
        report_at(matched("P1", PatternForm::size_conditional), scope, *e.items[0]);
      if (e.kind == Kind::keyword && e.text == "device" && !e.items.empty())
        device_literal(*e.items[0], scope);
      if (e.kind != Kind::call) return;
      const Expr& f = *call_func(e);
      const std::string chain = dotted(f);
      const auto args = positional(e);
      if (f.kind == Kind::name && args.size() == 1) builtin_call(e, f.text, *args[0], scope);
      if (f.kind == Kind::name) follow(e, f.text, scope);
      if (f.kind == Kind::name && (f.text == "max" || f.text == "min") && involves_size(e, scope))
        report_at(matched("P1", PatternForm::size_compare_builtin, f.text), scope, e);
      if (f.kind == Kind::attribute) {
        if (one_of(f.text, k_data_methods))
          report_at(matched("P5", PatternForm::data_read, f.text), scope, e);
        if (f.text == "cuda" || (f.text == "to" && !args.empty() && string_value(*args[0]) &&
                                 string_value(*args[0])->starts_with("cuda")))
          report_at(matched("P7", PatternForm::device_move), scope, e);
        if (f.text == "get_ctx" && scope.kernel->key == "Meta")
          report_at(matched("P8", PatternForm::get_ctx_in_meta), scope, e);
      }
      if (one_of(last_part(chain), k_factories) &&
          (chain.starts_with("torch.") || f.kind == Kind::attribute))
        factory(e, last_part(chain), scope);
    });
  }

  // A call to a function of this module: its body runs under the kernel too. Walked once per
  // kernel, a few calls deep, with its parameters bound as the call's arguments say; what is
  // found there names the helper as its function.
  void follow(const Expr& call, const std::string& name, Scope& scope) {
    const auto it = m_functions.find(name);
    if (it == m_functions.end() || scope.call_depth >= k_max_call_depth ||
        !scope.followed->insert(it->second).second)
      return;
    const Stmt& def = *it->second;
    Scope inner;
    inner.kernel = scope.kernel;
    inner.def = &def;
    inner.function = def.name;
    inner.followed = scope.followed;
    inner.call_depth = scope.call_depth + 1;
    const auto args = positional(call);
    bool by_position = true;
    for (std::size_t i = 0; i < def.params.size(); ++i) {
      const py::Param& p = def.params[i];
      inner.locals.insert(p.name);
      if (p.variadic) by_position = false;
      if (p.variadic) continue;
      const Expr* arg = by_position && i < args.size() ? args[i] : keyword(call, p.name);
      if (!arg) {
        if (!p.annotation.empty()) bind_parameter(p, "", inner);
      } else if (is_tensor(*arg, scope)) {
        inner.tensors.insert(p.name);
        if (scope.unknown.count(root_of(*arg)->text)) inner.unknown.insert(p.name);
      } else if (involves_size(*arg, scope)) {
        inner.sizes.insert(p.name);
      }
    }
    each_stmt(def.body, [&](const Stmt& s) { bind_locals(s, inner); });
    walk(def.body, inner, 0);
    scope.found += inner.found;
  }

  void builtin_call(const Expr& call, const std::string& name, const Expr& arg, Scope& scope) {
    if ((name == "int" || name == "bool" || name == "float") && involves_size(arg, scope)) {
      report_at(matched("P1", PatternForm::size_to_number, name), scope, call);
    } else if (name == "len" && is_tensor(arg, scope)) {
      // len(t) is t.shape[0] made a Python int: the dim is specialized. On an untyped parameter
      // it is one only if the schema (maybe in another file) says Tensor: the checks decide.
      model::SourcePattern p = matched("P1", PatternForm::size_to_number, name, matched_text(call));
      if (const std::string& root = root_of(arg)->text; scope.unknown.count(root))
        p.if_tensor_parameter = root;
      report_at(std::move(p), scope, call);
    } else if (name == "range" && involves_size(arg, scope)) {
      report_at(matched("P1", PatternForm::size_range), scope, call);
    } else if ((name == "bool" || name == "int" || name == "float") && is_tensor(arg, scope)) {
      report_at(matched("P5", PatternForm::tensor_to_number, name), scope, call);
    }
  }

  void device_literal(const Expr& value, Scope& scope) {
    std::optional<std::string> device = string_value(value);
    if (const Expr* f = call_func(value);
        !device && f && dotted(*f) == "torch.device" && value.items.size() >= 2)
      device = string_value(*value.items[1]);
    if (device && *device != "meta" && !m_host_tensors.count(&value))
      report_at(matched("P7", PatternForm::device_literal, *device), scope, value);
  }

  // P2: a factory whose size is made of literals, leads with a literal while the rest follows the
  // input, or reads a name from outside the function (a closure or global config).
  void factory(const Expr& call, const std::string& name, Scope& scope) {
    const auto args = positional(call);
    if (args.empty()) return;
    std::vector<const Expr*> dims;
    if (args[0]->kind == Kind::tuple || args[0]->kind == Kind::list) {
      for (const auto& item : args[0]->items) dims.push_back(item.get());
    } else if (name == "full" || name == "new_full" || name == "empty_strided" ||
               name == "randint") {
      dims.push_back(args[0]);
    } else {
      dims = args;
    }
    if (dims.empty()) return;  // torch.empty(()) / x.new_empty([]): a scalar, no shape to hard-code
    auto literal = [](const Expr* d) {
      if (d->kind != Kind::number) return std::optional<long long>{};
      try {
        return std::optional<long long>(std::stoll(d->text, nullptr, 0));
      } catch (...) {
        return std::optional<long long>{};
      }
    };
    bool all_literal = true, any_big = false, rest_sized = false;
    for (std::size_t i = 0; i < dims.size(); ++i) {
      const auto v = literal(dims[i]);
      if (!v) all_literal = false;
      if (v && *v >= 2) any_big = true;
      if (i > 0 && involves_size(*dims[i], scope)) rest_sized = true;
    }
    const auto lead = literal(dims[0]);
    std::optional<model::SourcePattern> found;
    if (all_literal && any_big)
      found = matched("P2", PatternForm::literal_shape);
    else if (lead && *lead >= 2 && rest_sized)
      found = matched("P2", PatternForm::literal_leading_dim, "", dims[0]->text);
    std::set<const Expr*> called;  // a function's name is no size read from outside
    for (const Expr* d : dims)
      each_expr(*d, [&](const Expr& x) {
        if (const Expr* f = call_func(x)) called.insert(f);
      });
    for (const Expr* d : dims)
      if (!found)
        each_expr(*d, [&](const Expr& x) {
          if (!found && x.kind == Kind::name && !scope.locals.count(x.text) &&
              !is_builtin(x.text) && !called.count(&x))
            found = matched("P2", PatternForm::outside_size, x.text);
        });
    // torch.empty([4], dtype=torch.int64, device="cpu"): a host tensor of fixed size (saved
    // metadata, as the real kernel returns too), not an output shape that ignores the input.
    const Expr* device = keyword(call, "device");
    if (all_literal && device && string_value(*device) == "cpu") {
      m_host_tensors.insert(device);
      return;
    }
    if (found) report_at(std::move(*found), scope, call);
  }

  static bool is_builtin(const std::string& name) {
    return name == "len" || name == "max" || name == "min" || name == "int" || name == "abs" ||
           name == "sum" || name == "torch" || name == "math" || name == "None" || name == "True" ||
           name == "False";
  }

  // P6: returning an input tensor as the output of a functional op.
  void aliasing(const Expr& value, Scope& scope) {
    auto check = [&](const Expr& e) {
      if (e.kind == Kind::name && scope.tensors.count(e.text) && scope.def == scope.kernel->def &&
          std::any_of(scope.def->params.begin(), scope.def->params.end(),
                      [&](const py::Param& p) { return p.name == e.text; }))
        report_at(matched("P6", PatternForm::returns_input, e.text), scope, e);
    };
    if (value.kind == Kind::tuple || value.kind == Kind::list)
      for (const auto& item : value.items) check(*item);
    else
      check(value);
  }

  // P3: a parameter that changes the output's shape but the fake, which makes an output, never
  // reads. Its name must say so: an `int` may be a step, a seed, a flag.
  void unused_parameters(const PythonKernel& k, Scope& scope) {
    std::set<std::string> used;
    bool makes_output = false;
    each_stmt(k.def->body, [&](const Stmt& s) {
      if (s.kind == Stmt::Kind::return_ && !s.exprs.empty()) makes_output = true;
      for (const auto& e : s.exprs)
        each_expr(*e, [&](const Expr& x) {
          if (x.kind == Kind::name) used.insert(x.text);
        });
      for (const auto& d : s.decorators)
        each_expr(*d, [&](const Expr& x) {
          if (x.kind == Kind::name) used.insert(x.text);
        });
    });
    if (!makes_output) return;
    for (const py::Param& p : k.def->params) {
      if (p.variadic || p.name.starts_with("_") || used.count(p.name)) continue;
      // A tensor, a float or a string is not a shape argument, whatever its name.
      if (p.annotation.find("Tensor") != std::string::npos ||
          p.annotation.find("float") != std::string::npos ||
          p.annotation.find("str") != std::string::npos)
        continue;
      const std::string& n = p.name;
      // One-letter names (n, k) say too little to flag without a type.
      const bool shape_name =
          (n.size() > 1 && names_a_size(n)) || n.find("trans") != std::string::npos ||
          n.find("dim") != std::string::npos || n.find("axis") != std::string::npos ||
          n.find("keepdim") != std::string::npos;
      if (!shape_name) continue;
      model::SourcePattern pattern = matched("P3", PatternForm::unused_shape_parameter, n);
      pattern.op = k.op;
      pattern.function = k.function;
      report(std::move(pattern), p.line, p.column, &scope);
    }
  }

  // P4: an op whose output size depends on data, with a fake that does not ask for a dynamic size.
  void data_dependent_output(const PythonKernel& k, Scope& scope) {
    std::string lower = k.op + " " + k.function;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (std::none_of(k_data_dependent_words.begin(), k_data_dependent_words.end(),
                     [&](std::string_view w) { return lower.find(w) != std::string::npos; }))
      return;
    bool asks = false;
    each_stmt(k.def->body, [&](const Stmt& s) {
      for (const auto& e : s.exprs)
        asks = asks || any_expr(*e, [](const Expr& x) {
                 return x.kind == Kind::attribute && x.text == "new_dynamic_size";
               });
    });
    if (asks) return;
    model::SourcePattern pattern = matched("P4", PatternForm::data_dependent_size);
    pattern.op = k.op;
    pattern.function = k.function;
    report(std::move(pattern), k.def->line, k.def->column, &scope);
  }

  // An expression as written, when it is short and on one line; "" otherwise.
  std::string matched_text(const Expr& e) const {
    std::string_view s = std::string_view(m_text).substr(e.begin, e.end - e.begin);
    if (s.size() > k_max_matched_text || s.find('\n') != std::string_view::npos) return {};
    return std::string(s);
  }

  // Records pattern `p` (its id, form and what it is about) at `at`, in the kernel being walked.
  void report_at(model::SourcePattern p, Scope& scope, const Expr& at) {
    p.op = scope.kernel->op;
    p.function = scope.function;
    report(std::move(p), at.line, at.column, &scope);
  }

  void report(model::SourcePattern p, int line, int column, Scope* scope = nullptr) {
    if (scope) ++scope->found;
    if (!m_reported.insert({p.id, line, column}).second) return;
    p.file = m_display;
    p.line = line;
    p.column = column;
    p.excerpt = m_lines.excerpt(line);
    m_facts.violations.push_back(std::move(p));
  }

  std::string_view m_text;
  LineIndex m_lines;
  const std::string& m_display;
  const std::map<std::string, const Stmt*>& m_functions;
  std::set<const Expr*> m_host_tensors;  // device="cpu" of a fixed-size host tensor
  model::SourceFacts& m_facts;
  std::set<std::tuple<std::string, int, int>> m_reported;
};

}  // namespace

void find_python_patterns(const PythonRegistrations& registrations, std::string_view text,
                          const std::string& display, model::SourceFacts& facts) {
  PatternFinder finder(text, display, registrations.functions, facts);
  for (const PythonKernel& k : registrations.kernels) {
    model::SourceKernel kernel;
    kernel.op = k.op;
    kernel.dispatch_key = k.key;
    kernel.function = k.function;
    kernel.registration_line = k.registration_line;
    kernel.traced = one_of(k.key, k_traced_keys);
    if (k.def) {
      kernel.line_begin = k.def->line;
      kernel.line_end = k.def->end_line;
      if (kernel.traced) kernel.symint_aware = finder.analyze(k) == 0;
    }
    facts.kernels.push_back(std::move(kernel));
  }
  for (const SchemaString& s : registrations.schema_strings) finder.check_schema(s);
}

}  // namespace aoti::parsers::source
