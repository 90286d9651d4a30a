#include "parsers/source/python_registrations.hpp"

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
    });
    each_stmt(module.body, [&](const Stmt& s) { registrations(s); });
    for (PythonKernel& k : m_found.kernels)
      if (!k.def && defs.count(k.function)) k.def = defs[k.function];
    return std::move(m_found);
  }

 private:
  void registrations(const Stmt& s) {
    if (s.kind == Stmt::Kind::def) {
      for (const auto& d : s.decorators) decorator(*d, s);
      return;
    }
    if (s.kind == Stmt::Kind::assign && s.exprs.size() >= 2) {
      const Expr& value = *s.exprs.back();
      const Expr* f = call_func(value);
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
        model::SourceOp op{*name, "", {}, def.line};
        for (const py::Param& p : def.params) op.args.push_back({p.name, p.annotation});
        m_ops.push_back(std::move(op));
        add_kernel(*name, "CompositeExplicitAutograd", def.name, d.line, &def);
      }
      return;
    }
    if (method == "register_fake" || method == "impl_abstract") {
      // torch.library.register_fake("ns::op") / impl_abstract(...) take the op; op.register_fake
      // is a method of the op object.
      const bool free_function =
          chain == method || chain.starts_with("torch.library.") || chain.starts_with("library.");
      std::string op;
      if (free_function && !args.empty())
        op = op_named_by(*args[0]);
      else if (!free_function && f->kind == Kind::attribute)
        op = op_named_by(*f->items[0]);
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
    if ((chain == "torch.library.register_fake" || chain == "torch.library.impl_abstract") &&
        args.size() >= 2)
      add_kernel(op_named_by(*args[0]), "Fake", dotted(*args[1]), call.line, nullptr);
  }

  // A schema string: the op, and the literal for C5.
  void add_op(const std::string& name, const std::string& schema, const Expr& literal) {
    ParsedSchema parsed = parse_schema(schema);
    m_ops.push_back({name, schema, parsed.args, literal.line});
    m_found.schema_strings.push_back({name, &literal, std::move(parsed)});
  }

  std::vector<model::SourceOp>& m_ops;
  PythonRegistrations m_found;
  std::map<std::string, std::string> m_custom_ops;  // function name → "ns::op"
  std::map<std::string, std::string> m_libraries;   // Library variable → namespace
};

}  // namespace

PythonRegistrations collect_python_registrations(const py::Module& module,
                                                 std::vector<model::SourceOp>& ops) {
  return Collector(ops).run(module);
}

}  // namespace aoti::parsers::source
