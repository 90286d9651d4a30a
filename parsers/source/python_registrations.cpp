#include "parsers/source/python_registrations.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <utility>

#include "parsers/source/python_walk.hpp"

namespace aoti::parsers::source {
namespace {

using py::Expr;
using py::Stmt;
using Kind = Expr::Kind;

class Collector {
 public:
  explicit Collector(std::vector<model::SourceOp>& ops) : m_ops(ops) {}

  PythonRegistrations run(const py::Module& module) {
    std::map<std::string, const Stmt*> defs;  // function name → its (last) def
    each_stmt(module.body, [&](const Stmt& s) {
      if (s.kind == Stmt::Kind::def) defs[s.name] = &s;
      if (s.kind == Stmt::Kind::assign && s.exprs.size() == 2 && s.exprs[0]->kind == Kind::name)
        if (const auto v = string_value(*s.exprs[1]); v && v->find("::") != std::string::npos)
          m_op_constants[s.exprs[0]->text] = *v;
    });
    module_functions(module.body, 0);
    // Aliases and wrappers of aliases and wrappers: a few rounds reach the fixed point.
    for (int round = 0; round < 3; ++round)
      each_stmt(module.body, [&](const Stmt& s) { registrar_of(s); });
    each_stmt(module.body, [&](const Stmt& s) { registrations(s); });
    for (PythonKernel& k : m_found.kernels)
      if (!k.def && defs.count(k.function)) k.def = defs[k.function];
    return std::move(m_found);
  }

 private:
  // How a registration function is called: which positional argument is the op, which the
  // kernel (-1: none, the function is a decorator factory), and the dispatch key it registers.
  struct Registrar {
    std::string key;
    int op_at = 0;
    int fn_at = 1;
  };

  // torch's own registration functions, then the module's aliases and wrappers of them.
  std::optional<Registrar> registrar(const std::string& chain) const {
    const std::string method = last_part(chain);
    const bool free_function =
        chain == method || chain.starts_with("torch.library.") || chain.starts_with("library.");
    if (const auto it = m_registrars.find(chain); it != m_registrars.end()) return it->second;
    if (free_function && (method == "register_fake" || method == "impl_abstract"))
      return Registrar{"Fake", 0, 1};
    if (free_function && method == "register_meta") return Registrar{"Meta", 0, 1};
    return std::nullopt;
  }

  // `x = torch.library.register_fake` makes `x` a registrar; so does a def whose body passes its
  // own parameters on as a registration's op (and kernel).
  void registrar_of(const Stmt& s) {
    if (s.kind == Stmt::Kind::assign && s.exprs.size() == 2 && s.exprs[0]->kind == Kind::name) {
      const std::string chain = dotted(*s.exprs[1]);
      if (!chain.empty() && chain != s.exprs[0]->text)
        if (const auto r = registrar(chain)) m_registrars[s.exprs[0]->text] = *r;
      return;
    }
    if (s.kind != Stmt::Kind::def) return;
    auto param_index = [&](const Expr* e) {
      if (e && e->kind == Kind::name)
        for (std::size_t i = 0; i < s.params.size(); ++i)
          if (s.params[i].name == e->text && !s.params[i].variadic) return static_cast<int>(i);
      return -1;
    };
    std::optional<Registrar> found;
    each_stmt(s.body, [&](const Stmt& inner) {
      for (const auto& e : inner.exprs)
        each_expr(*e, [&](const Expr& x) {
          const Expr* f = call_func(x);
          if (found || !f || dotted(*f) == s.name) return;
          const auto r = registrar(dotted(*f));
          if (!r) return;
          const auto args = positional(x);
          const auto at = [&](int i) {
            return i >= 0 && static_cast<std::size_t>(i) < args.size() ? args[i] : nullptr;
          };
          const int op = param_index(at(r->op_at));
          const int fn = param_index(at(r->fn_at));
          if (op >= 0 && (fn >= 0 || !at(r->fn_at))) found = Registrar{r->key, op, fn};
        });
    });
    if (found) m_registrars[s.name] = *found;
  }

  // Defs at module level, also under module-level if / try / with blocks; not methods or nested.
  void module_functions(const std::vector<py::StmtPtr>& body, int depth) {
    if (depth > k_max_walk_depth) return;
    for (const auto& s : body) {
      if (s->kind == Stmt::Kind::def)
        m_found.functions[s->name] = s.get();
      else if (s->kind != Stmt::Kind::cls)
        module_functions(s->body, depth + 1);
    }
  }

  // `f = torch.library.custom_op("ns::op", mutates_args=())(impl)` and
  // `f = custom_op("ns::op", impl, mutates_args=())`: `f` is the op.
  void custom_op_assignment(const Stmt& s) {
    const Expr& value = *s.exprs.back();
    const Expr* f = call_func(value);
    if (!f) return;
    const Expr* factory = f->kind == Kind::call ? f : &value;
    const Expr* factory_f = call_func(*factory);
    if (!factory_f || last_part(dotted(*factory_f)) != "custom_op") return;
    const auto factory_args = positional(*factory);
    if (factory_args.empty()) return;
    const auto name = string_value(*factory_args[0]);
    const Expr* impl = nullptr;
    if (factory != &value && !positional(value).empty()) impl = positional(value)[0];
    if (factory == &value && factory_args.size() >= 2) impl = factory_args[1];
    if (!name || !impl || impl->kind != Kind::name) return;
    for (std::size_t i = 0; i + 1 < s.exprs.size(); ++i)
      if (s.exprs[i]->kind == Kind::name) m_custom_ops[s.exprs[i]->text] = *name;
    m_ops.push_back({*name, "", {}, value.line, ""});
    add_kernel(*name, "CompositeExplicitAutograd", impl->text, value.line, nullptr);
  }

  void registrations(const Stmt& s) {
    if (s.kind == Stmt::Kind::def) {
      for (const auto& d : s.decorators) decorator(*d, s);
      return;
    }
    if (s.kind == Stmt::Kind::assign && s.exprs.size() >= 2) {
      const Expr& value = *s.exprs.back();
      const Expr* f = call_func(value);
      custom_op_assignment(s);
      if (f && last_part(dotted(*f)) == "Library") {
        const auto args = positional(value);
        if (!args.empty())
          if (const auto ns = string_value(*args[0]))
            for (std::size_t i = 0; i + 1 < s.exprs.size(); ++i)
              if (s.exprs[i]->kind == Kind::name) m_libraries[s.exprs[i]->text] = *ns;
      }
    }
    for (const auto& e : s.exprs)
      each_expr(*e, [&](const Expr& x) {
        if (x.kind == Kind::call) registration_call(x);
      });
  }

  // The op an expression names: "ns::op" literals, a custom_op function,
  // torch.ops.ns.op[.overload].
  std::string op_named_by(const Expr& e) const {
    if (const auto s = string_value(e)) return *s;
    const std::string chain = dotted(e);
    if (const auto it = m_op_constants.find(chain); it != m_op_constants.end()) return it->second;
    if (const auto it = m_custom_ops.find(chain); it != m_custom_ops.end()) return it->second;
    if (chain.starts_with("torch.ops.")) {
      const std::string rest = chain.substr(10);
      const std::size_t dot = rest.find('.');
      if (dot != std::string::npos) {
        std::string name = rest.substr(0, dot) + "::" + rest.substr(dot + 1);
        if (name.ends_with(".default")) name.resize(name.size() - 8);
        return name;
      }
    }
    return chain;
  }

  void add_kernel(std::string op, std::string key, std::string function, int line,
                  const Stmt* def) {
    m_found.kernels.push_back({std::move(op), std::move(key), std::move(function), line, def});
  }

  void decorator(const Expr& d, const Stmt& def) {
    const Expr* f = d.kind == Kind::call ? call_func(d) : &d;
    if (!f) return;
    const std::string chain = dotted(*f);
    const std::string method = last_part(chain);
    const auto args = d.kind == Kind::call ? positional(d) : std::vector<const Expr*>{};
    if (method == "custom_op" && !args.empty()) {
      if (const auto name = string_value(*args[0])) {
        m_custom_ops[def.name] = *name;
        model::SourceOp op{*name, "", {}, def.line, ""};
        for (const py::Param& p : def.params) op.args.push_back({p.name, p.annotation});
        m_ops.push_back(std::move(op));
        add_kernel(*name, "CompositeExplicitAutograd", def.name, d.line, &def);
      }
      return;
    }
    if (const auto r = registrar(chain)) {
      // torch.library.register_fake("ns::op"), impl_abstract(...), register_meta(...) or the
      // module's alias / wrapper of one: the op is an argument.
      if (r->op_at >= 0 && static_cast<std::size_t>(r->op_at) < args.size())
        add_kernel(op_named_by(*args[r->op_at]), r->key, def.name, d.line, &def);
      return;
    }
    if ((method == "register_fake" || method == "impl_abstract") && f->kind == Kind::attribute) {
      // op.register_fake: a method of the op object.
      const std::string op = op_named_by(*f->items[0]);
      if (!op.empty()) add_kernel(op, "Fake", def.name, d.line, &def);
      return;
    }
    if (method == "register_kernel" && f->kind == Kind::attribute) {
      std::string key = args.empty() ? "" : string_value(*args[0]).value_or("");
      for (char& c : key) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      add_kernel(op_named_by(*f->items[0]), key.empty() ? "CompositeExplicitAutograd" : key,
                 def.name, d.line, &def);
      return;
    }
    if (method == "impl" && d.kind == Kind::call && args.size() >= 2) {
      // torch.library.impl("ns::op", "Meta") / torch.library.impl(lib, "op", "Meta")
      std::string op = op_named_by(*args[0]);
      std::size_t key_at = 1;
      if (const auto lib = m_libraries.find(dotted(*args[0]));
          lib != m_libraries.end() && args.size() >= 3) {
        op = qualify(lib->second, string_value(*args[1]).value_or(""));
        key_at = 2;
      }
      const Expr* key = keyword(d, "dispatch_key");
      if (!key) key = keyword(d, "types");
      if (!key) key = args[key_at];
      add_kernel(op, string_value(*key).value_or("CompositeImplicitAutograd"), def.name, d.line,
                 &def);
    }
  }

  void registration_call(const Expr& call) {
    const Expr* f = call_func(call);
    if (!f) return;
    const std::string chain = dotted(*f);
    const std::string method = last_part(chain);
    const auto args = positional(call);
    const std::string receiver = f->kind == Kind::attribute ? dotted(*f->items[0]) : "";
    const auto lib = m_libraries.find(receiver);
    if (method == "define" && !args.empty()) {
      // lib.define("op(Tensor x) -> Tensor") or torch.library.define("ns::op", "(Tensor x) ->
      // Tensor")
      std::optional<std::string> schema = string_value(*args[0]);
      std::string name;
      const Expr* literal = args[0];
      if (lib != m_libraries.end() && schema) {
        name = qualify(lib->second, parse_schema(*schema).name);
      } else if (args.size() >= 2 && schema && string_value(*args[1])) {
        name = *schema;
        literal = args[1];
        schema = parse_schema(*schema).name.empty() ? *schema + *string_value(*args[1])
                                                    : *string_value(*args[1]);
      } else {
        return;
      }
      add_op(name, *schema, *literal);
      return;
    }
    if (method == "impl" && lib != m_libraries.end() && args.size() >= 2) {
      const std::string op = qualify(lib->second, string_value(*args[0]).value_or(""));
      const Expr* key = keyword(call, "dispatch_key");
      if (!key && args.size() >= 3) key = args[2];
      const std::string key_name = key ? string_value(*key).value_or("") : "";
      add_kernel(op, key_name.empty() ? "CompositeImplicitAutograd" : key_name, dotted(*args[1]),
                 call.line, nullptr);
      return;
    }
    if (method == "impl" && chain.starts_with("torch.library.") && args.size() >= 2) {
      // torch.library.impl("ns::op", "Meta", fn) / (..., func=fn)
      const Expr* fn = keyword(call, "func");
      if (!fn && args.size() >= 3) fn = args[2];
      if (fn) kernel_call(*args[0], string_value(*args[1]).value_or(""), *fn, call.line);
      return;
    }
    if (const auto r = registrar(chain);
        r && r->fn_at >= 0 && static_cast<std::size_t>(std::max(r->op_at, r->fn_at)) < args.size())
      kernel_call(*args[r->op_at], r->key, *args[r->fn_at], call.line);
  }

  // A registration by a plain call: the op must be known here (a literal, a module constant, a
  // custom_op, torch.ops...), not a wrapper's own parameter; the kernel a function, never a
  // string (a schema).
  void kernel_call(const Expr& op_expr, const std::string& key, const Expr& fn, int line) {
    if (key.empty() || (fn.kind != Kind::name && fn.kind != Kind::attribute)) return;
    if (op_expr.kind == Kind::name && !m_custom_ops.count(op_expr.text) &&
        !m_op_constants.count(op_expr.text))
      return;
    const std::string op = op_named_by(op_expr);
    if (op.empty()) return;
    add_kernel(op, key, dotted(fn), line, nullptr);
  }

  // A schema string: the op, and the literal for C5.
  void add_op(const std::string& name, const std::string& schema, const Expr& literal) {
    ParsedSchema parsed = parse_schema(schema);
    m_ops.push_back({name, schema, parsed.args, literal.line, ""});
    m_found.schema_strings.push_back({name, &literal, std::move(parsed)});
  }

  std::vector<model::SourceOp>& m_ops;
  PythonRegistrations m_found;
  std::map<std::string, std::string> m_custom_ops;    // function name → "ns::op"
  std::map<std::string, std::string> m_libraries;     // Library variable → namespace
  std::map<std::string, std::string> m_op_constants;  // NAME = "ns::op" → "ns::op"
  std::map<std::string, Registrar> m_registrars;      // the module's aliases and wrappers
};

}  // namespace

PythonRegistrations collect_python_registrations(const py::Module& module,
                                                 std::vector<model::SourceOp>& ops) {
  return Collector(ops).run(module);
}

}  // namespace aoti::parsers::source
