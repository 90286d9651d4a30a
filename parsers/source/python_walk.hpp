// Reading the Python tree (python_syntax.hpp) the way both halves of the Python front end do:
// dotted names, string values, call arguments, and bounded pre-order walks. Internal to
// parsers/source.
#pragma once

#include <algorithm>
#include <array>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/source/python_syntax.hpp"

namespace aoti::parsers::source {

inline constexpr int k_max_walk_depth = 256;  // recursion bound of every walk over the tree

// `torch.library.register_fake` → "torch.library.register_fake"; "" when not a plain chain.
std::string dotted(const py::Expr& e);
std::string last_part(const std::string& chain);  // "torch.library.impl" → "impl"
// The Python string a literal expression holds (simple escapes; prefixes dropped).
std::optional<std::string> string_value(const py::Expr& e);
const py::Expr* call_func(
    const py::Expr& e);  // the called expression of a call, null for anything else
std::vector<const py::Expr*> positional(const py::Expr& call);
const py::Expr* keyword(const py::Expr& call, std::string_view name);  // a keyword argument's value

// Pre-order over an expression, not into lambda bodies (they run later, or never).
void each_expr(const py::Expr& e, const std::function<void(const py::Expr&)>& visit, int depth = 0);
bool any_expr(const py::Expr& e, const std::function<bool(const py::Expr&)>& pred);
// Pre-order over statements and the blocks they open.
void each_stmt(const std::vector<py::StmtPtr>& body,
               const std::function<void(const py::Stmt&)>& visit, int depth = 0);

template <std::size_t N>
bool one_of(std::string_view s, const std::array<std::string_view, N>& set) {
  return std::find(set.begin(), set.end(), s) != set.end();
}

}  // namespace aoti::parsers::source
