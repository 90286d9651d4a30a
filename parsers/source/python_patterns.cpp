// The P patterns of failure-modes.md §1.3 in the kernels that run on fake tensors (Fake, Meta,
// CompositeImplicitAutograd): a size read into a Python number or a branch, a hard-coded shape or
// device, data access, an aliased or ignored input. What is matched is recorded as data; the
// checks say what it means.
#include "parsers/source/python_patterns.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

#include "parsers/source/python_walk.hpp"
#include "parsers/source/source_text.hpp"

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
constexpr std::array<std::string_view, 6> k_data_dependent_words{
    "nonzero", "unique", "masked_select", "compact", "filter", "dynamic"};

class PatternFinder {
 public:
  PatternFinder(std::string_view text, const std::string& display, model::SourceFacts& facts)
      : m_text(text), m_lines(text), m_display(display), m_facts(facts) {}

  // The P patterns in a traced kernel's body; how many it found (0: the kernel is SymInt-aware).
  std::size_t analyze(const PythonKernel& k) {
    Scope scope;
    scope.kernel = &k;
    const model::SourceOp* op = nullptr;
    for (const model::SourceOp& o : m_facts.ops)
      if (o.name == k.op) op = &o;
    for (const py::Param& p : k.def->params) {
      scope.locals.insert(p.name);
      std::string schema_type;
      if (op)
        for (const model::SchemaArg& a : op->args)
          if (a.name == p.name) schema_type = a.type;
      const bool int_like = p.annotation == "int" ||
                            p.annotation.find("SymInt") != std::string::npos ||
                            schema_type.starts_with("SymInt") || schema_type.starts_with("int");
      const bool tensor_like = p.annotation.find("Tensor") != std::string::npos ||
                               schema_type.starts_with("Tensor") ||
                               (p.annotation.empty() && schema_type.empty());
      if (int_like)
        scope.sizes.insert(p.name);
      else if (tensor_like && !p.variadic && p.name != "ctx" && p.name != "self")
        scope.tensors.insert(p.name);
    }
    each_stmt(k.def->body, [&](const Stmt& s) { bind_locals(s, scope); });
    walk(k.def->body, scope, 0);
    unused_parameters(k, scope);
    data_dependent_output(k, scope);
    return scope.found;
  }

  // C5 applies to schema strings in any language.
  void check_schema(const SchemaString& s) {
    const Expr& literal = *s.literal;
    const ParsedSchema& parsed = s.schema;
    for (std::size_t i = 0; i < parsed.args.size(); ++i) {
      const model::SchemaArg& arg = parsed.args[i];
      if (!is_concrete_int_type(arg.type) || !names_a_size(arg.name)) continue;
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
    std::set<std::string> tensors;  // tensor parameters and tensors derived from them
    std::set<std::string> sizes;    // SymInt parameters and names bound to sizes
    std::set<std::string> locals;   // every name the function binds
    std::size_t found = 0;
  };

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

  bool involves_size(const Expr& e, const Scope& scope) const {
    if (e.kind == Kind::call && call_func(e)->kind == Kind::name && call_func(e)->text == "len" &&
        e.items.size() == 2 && e.items[1]->kind == Kind::attribute && e.items[1]->text == "shape")
      return false;  // len(x.shape) is the rank
    if (is_size(e, scope)) return true;
    if (e.kind == Kind::lambda) return false;
    for (const auto& item : e.items)
      if (involves_size(*item, scope)) return true;
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

  // Names bound to sizes become sizes; to tensors (not sizes) become tensors.
  void bind(const Stmt& s, Scope& scope) const {
    const Expr& value = *s.exprs.back();
    const bool size = involves_size(value, scope) && !any_expr(value, [](const Expr& e) {
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

  void builtin_call(const Expr& call, const std::string& name, const Expr& arg, Scope& scope) {
    if ((name == "int" || name == "bool" || name == "float") && involves_size(arg, scope)) {
      report_at(matched("P1", PatternForm::size_to_number, name), scope, call);
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
    if (device && *device != "meta")
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
    for (const Expr* d : dims)
      if (!found)
        each_expr(*d, [&](const Expr& x) {
          if (!found && x.kind == Kind::name && !scope.locals.count(x.text) && !is_builtin(x.text))
            found = matched("P2", PatternForm::outside_size, x.text);
        });
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
      if (e.kind == Kind::name && scope.tensors.count(e.text) &&
          std::any_of(scope.kernel->def->params.begin(), scope.kernel->def->params.end(),
                      [&](const py::Param& p) { return p.name == e.text; }))
        report_at(matched("P6", PatternForm::returns_input, e.text), scope, e);
    };
    if (value.kind == Kind::tuple || value.kind == Kind::list)
      for (const auto& item : value.items) check(*item);
    else
      check(value);
  }

  // P3: a parameter that changes the output's shape but the fake never reads.
  void unused_parameters(const PythonKernel& k, Scope& scope) {
    std::set<std::string> used;
    each_stmt(k.def->body, [&](const Stmt& s) {
      for (const auto& e : s.exprs)
        each_expr(*e, [&](const Expr& x) {
          if (x.kind == Kind::name) used.insert(x.text);
        });
      for (const auto& d : s.decorators)
        each_expr(*d, [&](const Expr& x) {
          if (x.kind == Kind::name) used.insert(x.text);
        });
    });
    for (const py::Param& p : k.def->params) {
      if (p.variadic || p.name.starts_with("_") || used.count(p.name)) continue;
      const bool shape_type = p.annotation == "int" || p.annotation == "bool" ||
                              p.annotation.find("SymInt") != std::string::npos ||
                              p.annotation.find("list[int]") != std::string::npos ||
                              p.annotation.find("List[int]") != std::string::npos;
      const std::string& n = p.name;
      // One-letter names (n, k) say too little to flag without a type.
      const bool shape_name =
          (n.size() > 1 && names_a_size(n)) || n.find("trans") != std::string::npos ||
          n.find("dim") != std::string::npos || n.find("axis") != std::string::npos ||
          n.find("keepdim") != std::string::npos;
      if (!shape_type && !shape_name) continue;
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
    p.function = scope.kernel->function;
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
  model::SourceFacts& m_facts;
  std::set<std::tuple<std::string, int, int>> m_reported;
};

}  // namespace

void find_python_patterns(const PythonRegistrations& registrations, std::string_view text,
                          const std::string& display, model::SourceFacts& facts) {
  PatternFinder finder(text, display, facts);
  for (const PythonKernel& k : registrations.kernels) {
    model::SourceKernel kernel{
        k.op, k.key, k.function, k.registration_line, 0, 0, one_of(k.key, k_traced_keys), true};
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
