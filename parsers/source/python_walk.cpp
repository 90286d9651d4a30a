#include "parsers/source/python_walk.hpp"

namespace aoti::parsers::source {
namespace {

using py::Expr;
using py::Stmt;
using Kind = Expr::Kind;

}  // namespace

std::string dotted(const Expr& e) {
  if (e.kind == Kind::name) return e.text;
  if (e.kind == Kind::attribute && !e.items.empty()) {
    const std::string base = dotted(*e.items[0]);
    return base.empty() ? "" : base + "." + e.text;
  }
  return {};
}

std::string last_part(const std::string& chain) {
  const std::size_t dot = chain.rfind('.');
  return dot == std::string::npos ? chain : chain.substr(dot + 1);
}

std::optional<std::string> string_value(const Expr& e) {
  if (e.kind != Kind::string) return std::nullopt;
  std::string out;
  std::string_view s = e.text;
  while (!s.empty()) {
    std::size_t q = s.find_first_of("'\"");
    if (q == std::string_view::npos) break;
    const char quote = s[q];
    const bool triple = s.substr(q, 3) == std::string(3, quote);
    const std::size_t open = q + (triple ? 3 : 1);
    const std::string closer(triple ? 3 : 1, quote);
    std::size_t end = open;
    while (end < s.size() && s.substr(end, closer.size()) != closer) end += s[end] == '\\' ? 2 : 1;
    out += s.substr(open, std::min(end, s.size()) - open);
    s.remove_prefix(std::min(s.size(), end + closer.size()));
  }
  return out;
}

const Expr* call_func(const Expr& e) {
  return e.kind == Kind::call && !e.items.empty() ? e.items[0].get() : nullptr;
}

std::vector<const Expr*> positional(const Expr& call) {
  std::vector<const Expr*> out;
  for (std::size_t i = 1; i < call.items.size(); ++i)
    if (call.items[i]->kind != Kind::keyword) out.push_back(call.items[i].get());
  return out;
}

const Expr* keyword(const Expr& call, std::string_view name) {
  for (std::size_t i = 1; i < call.items.size(); ++i)
    if (call.items[i]->kind == Kind::keyword && call.items[i]->text == name &&
        !call.items[i]->items.empty())
      return call.items[i]->items[0].get();
  return nullptr;
}

void each_expr(const Expr& e, const std::function<void(const Expr&)>& visit, int depth) {
  if (depth > k_max_walk_depth) return;
  visit(e);
  if (e.kind == Kind::lambda) return;
  for (const auto& item : e.items) each_expr(*item, visit, depth + 1);
}

bool any_expr(const Expr& e, const std::function<bool(const Expr&)>& pred) {
  bool found = false;
  each_expr(e, [&](const Expr& x) { found = found || pred(x); });
  return found;
}

void each_stmt(const std::vector<py::StmtPtr>& body, const std::function<void(const Stmt&)>& visit,
               int depth) {
  if (depth > k_max_walk_depth) return;
  for (const auto& s : body) {
    visit(*s);
    each_stmt(s->body, visit, depth + 1);
  }
}

}  // namespace aoti::parsers::source
