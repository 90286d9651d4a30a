// The expression half of the Python parser: precedence climbing from `lambda` / conditional
// expressions down to atoms, calls, subscripts and comprehensions.
#include "parsers/source/python_expressions.hpp"

#include <algorithm>
#include <array>

namespace aoti::parsers::source::py {

namespace {

constexpr std::array<std::string_view, 35> k_keywords{
    "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
    "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
    "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
    "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};

}  // namespace

bool is_keyword(std::string_view s) {
  return std::find(k_keywords.begin(), k_keywords.end(), s) != k_keywords.end();
}

void TokenCursor::failure(const std::string& message) const {
  const Token& t = peek();
  throw ParseFailure{
      {t.line, t.column,
       message + (t.kind == Tok::end ? " at end of file"
                                     : " near '" + std::string(t.text.substr(0, 40)) + "'")}};
}

std::string TokenCursor::expect_name() {
  if (!at(Tok::name) || is_keyword(peek().text)) failure("expected a name");
  return std::string(next().text);
}

ExprPtr ExpressionParser::make(Expr::Kind kind, const Token& at_token, std::string text) {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->text = std::move(text);
  e->line = at_token.line;
  e->column = at_token.column;
  e->begin = at_token.offset;
  e->end = at_token.offset + at_token.text.size();
  return e;
}

ExprPtr ExpressionParser::wrap(Expr::Kind kind, ExprPtr first, std::string text) {
  // Walks over the tree recurse; a chain of thousands of links would exhaust their stack.
  if (first->chain + m_depth > k_max_depth) failure("too deeply nested");
  auto e = std::make_unique<Expr>();
  e->chain = first->chain + 1;
  e->kind = kind;
  e->text = std::move(text);
  e->line = first->line;
  e->column = first->column;
  e->begin = first->begin;
  e->end = first->end;
  e->items.push_back(std::move(first));
  return e;
}

void ExpressionParser::close(Expr& e) {
  e.end = std::max(e.end, m_tokens[m_pos > 0 ? m_pos - 1 : 0].offset +
                              m_tokens[m_pos > 0 ? m_pos - 1 : 0].text.size());
}

ExprPtr ExpressionParser::name_expr(const Token& t) {
  return make(Expr::Kind::name, t, std::string(t.text));
}

// a, b, c (a tuple when there is a comma)
ExprPtr ExpressionParser::expression_list() {
  ExprPtr first = star_or_expression();
  if (!at_op(",")) return first;
  ExprPtr tuple = wrap(Expr::Kind::tuple, std::move(first));
  while (at_op(",")) {
    next();
    if (at(Tok::newline) || at_op("=") || at_op(")") || at_op(";") || at(Tok::end) || at_op(":"))
      break;
    tuple->items.push_back(star_or_expression());
  }
  close(*tuple);
  return tuple;
}

// for-loop and comprehension targets: stop before `in`.
ExprPtr ExpressionParser::target_list() {
  ExprPtr first = binary(0);
  if (!at_op(",")) return first;
  ExprPtr tuple = wrap(Expr::Kind::tuple, std::move(first));
  while (at_op(",")) {
    next();
    if (at_kw("in")) break;
    tuple->items.push_back(binary(0));
  }
  close(*tuple);
  return tuple;
}

ExprPtr ExpressionParser::star_or_expression() {
  if (at_op("*")) {
    const Token& t = next();
    ExprPtr e = make(Expr::Kind::starred, t);
    e->items.push_back(binary(0));
    close(*e);
    return e;
  }
  return expression();
}

ExprPtr ExpressionParser::named_expression() {
  ExprPtr e = expression();
  if (at_op(":=")) {
    next();
    ExprPtr value = expression();
    ExprPtr assign = wrap(Expr::Kind::binary, std::move(e), ":=");
    assign->items.push_back(std::move(value));
    close(*assign);
    return assign;
  }
  return e;
}

ExprPtr ExpressionParser::expression() {
  DepthGuard guard(*this);
  if (at_kw("lambda")) {
    const Token& t = next();
    while (!at_op(":") && !at(Tok::newline) && !at(Tok::end)) next();
    expect_op(":");
    ExprPtr e = make(Expr::Kind::lambda, t);
    e->items.push_back(expression());
    close(*e);
    return e;
  }
  if (at_kw("yield")) {
    const Token& t = next();
    ExprPtr e = make(Expr::Kind::other, t, "yield");
    if (at_kw("from")) next();
    if (!at(Tok::newline) && !at_op(")") && !at_op(";") && !at_op("="))
      e->items.push_back(expression_list());
    close(*e);
    return e;
  }
  ExprPtr body = or_test();
  if (!at_kw("if")) return body;
  next();
  ExprPtr cond = or_test();
  if (!at_kw("else")) failure("expected 'else' in a conditional expression");
  next();
  ExprPtr e = wrap(Expr::Kind::ifexp, std::move(cond));
  e->items.push_back(std::move(body));
  e->items.push_back(expression());
  e->begin = std::min(e->begin, e->items[1]->begin);
  e->line = e->items[1]->line;
  e->column = e->items[1]->column;
  close(*e);
  return e;
}

ExprPtr ExpressionParser::or_test() {
  ExprPtr left = and_test();
  while (at_kw("or")) {
    next();
    left = joined(std::move(left), "or", and_test());
  }
  return left;
}

ExprPtr ExpressionParser::and_test() {
  ExprPtr left = not_test();
  while (at_kw("and")) {
    next();
    left = joined(std::move(left), "and", not_test());
  }
  return left;
}

ExprPtr ExpressionParser::not_test() {
  if (at_kw("not")) {
    DepthGuard guard(*this);
    const Token& t = next();
    ExprPtr e = make(Expr::Kind::unary, t, "not");
    e->items.push_back(not_test());
    close(*e);
    return e;
  }
  return comparison();
}

ExprPtr ExpressionParser::comparison() {
  ExprPtr left = binary(0);
  while (true) {
    std::string op;
    if (peek().kind == Tok::op &&
        (peek().text == "<" || peek().text == ">" || peek().text == "==" || peek().text == ">=" ||
         peek().text == "<=" || peek().text == "!=")) {
      op = std::string(next().text);
    } else if (at_kw("in")) {
      next();
      op = "in";
    } else if (at_kw("not") && peek(1).kind == Tok::name && peek(1).text == "in") {
      next();
      next();
      op = "not in";
    } else if (at_kw("is")) {
      next();
      op = "is";
      if (at_kw("not")) {
        next();
        op = "is not";
      }
    } else {
      break;
    }
    left = joined(std::move(left), op, binary(0));
  }
  return left;
}

ExprPtr ExpressionParser::joined(ExprPtr left, std::string op, ExprPtr right) {
  ExprPtr e = wrap(Expr::Kind::binary, std::move(left), std::move(op));
  e->end = right->end;
  e->items.push_back(std::move(right));
  return e;
}

// Binary operators by precedence: | ^ & (<< >>) (+ -) (* / // % @); then unary, **, await.
ExprPtr ExpressionParser::binary(int level) {
  static constexpr std::array<std::array<std::string_view, 5>, 6> k_levels{
      {{"|"}, {"^"}, {"&"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "//", "%", "@"}}};
  if (level == static_cast<int>(k_levels.size())) return unary();
  DepthGuard guard(*this);
  ExprPtr left = binary(level + 1);
  while (peek().kind == Tok::op) {
    const auto& ops = k_levels[static_cast<std::size_t>(level)];
    if (std::find(ops.begin(), ops.end(), peek().text) == ops.end() || peek().text.empty()) break;
    const std::string op(next().text);
    left = joined(std::move(left), op, binary(level + 1));
  }
  return left;
}

ExprPtr ExpressionParser::unary() {
  if (at_op("-") || at_op("+") || at_op("~") || at_kw("await")) {
    DepthGuard guard(*this);
    const Token& t = next();
    ExprPtr e = make(Expr::Kind::unary, t, std::string(t.text));
    e->items.push_back(unary());
    close(*e);
    return e;
  }
  ExprPtr base = postfix(atom());
  if (at_op("**")) {
    next();
    base = joined(std::move(base), "**", unary());
  }
  return base;
}

ExprPtr ExpressionParser::atom() {
  const Token& t = peek();
  if (t.kind == Tok::name) {
    if (is_keyword(t.text) && t.text != "None" && t.text != "True" && t.text != "False")
      failure("unexpected keyword");
    next();
    return name_expr(t);
  }
  if (t.kind == Tok::number) {
    next();
    return make(Expr::Kind::number, t, std::string(t.text));
  }
  if (t.kind == Tok::string) {
    next();
    ExprPtr e = make(Expr::Kind::string, t, std::string(t.text));
    while (at(Tok::string)) {  // implicit concatenation
      e->text += next().text;
      close(*e);
    }
    return e;
  }
  if (at_op("...")) {
    next();
    return make(Expr::Kind::other, t, "...");
  }
  if (at_op("(")) return collection(Expr::Kind::tuple, ")");
  if (at_op("[")) return collection(Expr::Kind::list, "]");
  if (at_op("{")) return collection(Expr::Kind::set, "}");
  failure("unexpected token");
}

// ( ... ) [ ... ] { ... }: items, dict pairs, a comprehension, or one parenthesized expression.
ExprPtr ExpressionParser::collection(Expr::Kind kind, std::string_view closer) {
  DepthGuard guard(*this);
  const Token& open = next();
  ExprPtr e = make(kind, open);
  bool comma = false;
  while (!at_op(closer)) {
    if (at(Tok::end)) failure("unclosed bracket");
    if (at_op("**")) {
      next();
      e->kind = Expr::Kind::dict;
      e->items.push_back(binary(0));
    } else {
      ExprPtr item = kind == Expr::Kind::tuple ? named_or_yield() : star_or_expression();
      if (at_op(":") && kind == Expr::Kind::set) {
        next();
        e->kind = Expr::Kind::dict;
        e->items.push_back(std::move(item));
        item = expression();
      }
      if (at_kw("for") || at_kw("async")) item = comprehension(std::move(item));
      e->items.push_back(std::move(item));
    }
    if (at_op(",")) {
      next();
      comma = true;
    } else if (!at_op(closer)) {
      failure("expected ',' or '" + std::string(closer) + "'");
    }
  }
  next();
  close(*e);
  // (x) is x, not a tuple.
  if (kind == Expr::Kind::tuple && !comma && e->items.size() == 1) {
    ExprPtr inner = std::move(e->items.front());
    inner->begin = e->begin;
    inner->end = e->end;
    return inner;
  }
  return e;
}

ExprPtr ExpressionParser::named_or_yield() {
  return at_kw("yield") ? expression() : at_op("*") ? star_or_expression() : named_expression();
}

ExprPtr ExpressionParser::comprehension(ExprPtr element) {
  ExprPtr e = wrap(Expr::Kind::comprehension, std::move(element));
  while (at_kw("for") || at_kw("async")) {
    if (at_kw("async")) next();
    next();
    e->items.push_back(wrap(Expr::Kind::other, target_list(), "for"));  // marks the bound names
    if (!at_kw("in")) failure("expected 'in'");
    next();
    e->items.push_back(or_test());
    while (at_kw("if")) {
      next();
      e->items.push_back(or_test());
    }
  }
  close(*e);
  return e;
}

ExprPtr ExpressionParser::postfix(ExprPtr base) {
  int chain = 0;
  while (true) {
    if (++chain > k_max_depth * 4) failure("expression too long");
    if (at_op(".")) {
      next();
      const std::string name = expect_name();
      base = wrap(Expr::Kind::attribute, std::move(base), name);
      close(*base);
    } else if (at_op("(")) {
      base = call(std::move(base));
    } else if (at_op("[")) {
      DepthGuard guard(*this);
      next();
      ExprPtr sub = wrap(Expr::Kind::subscript, std::move(base));
      sub->items.push_back(subscript_list());
      expect_op("]");
      close(*sub);
      base = std::move(sub);
    } else {
      return base;
    }
  }
}

ExprPtr ExpressionParser::call(ExprPtr func) {
  DepthGuard guard(*this);
  next();  // (
  ExprPtr e = wrap(Expr::Kind::call, std::move(func));
  while (!at_op(")")) {
    if (at(Tok::end)) failure("unclosed call");
    if (at_op("**")) {
      const Token& t = next();
      ExprPtr kw = make(Expr::Kind::keyword, t);
      kw->items.push_back(expression());
      close(*kw);
      e->items.push_back(std::move(kw));
    } else if (at(Tok::name) && peek(1).kind == Tok::op && peek(1).text == "=") {
      const Token& t = next();
      next();
      ExprPtr kw = make(Expr::Kind::keyword, t, std::string(t.text));
      kw->items.push_back(expression());
      close(*kw);
      e->items.push_back(std::move(kw));
    } else {
      ExprPtr arg = star_or_expression();
      if (at_op(":=")) {
        next();
        arg = joined(std::move(arg), ":=", expression());
      }
      if (at_kw("for") || at_kw("async")) arg = comprehension(std::move(arg));
      e->items.push_back(std::move(arg));
    }
    if (at_op(","))
      next();
    else if (!at_op(")"))
      failure("expected ',' or ')'");
  }
  next();
  close(*e);
  return e;
}

ExprPtr ExpressionParser::subscript_list() {
  ExprPtr first = slice_item();
  if (!at_op(",")) return first;
  ExprPtr tuple = wrap(Expr::Kind::tuple, std::move(first));
  while (at_op(",")) {
    next();
    if (at_op("]")) break;
    tuple->items.push_back(slice_item());
  }
  close(*tuple);
  return tuple;
}

ExprPtr ExpressionParser::slice_item() {
  const Token& t = peek();
  ExprPtr lower;
  if (!at_op(":")) {
    lower = star_or_expression();
    if (!at_op(":")) return lower;
  }
  ExprPtr e = make(Expr::Kind::slice, t);
  if (lower) e->items.push_back(std::move(lower));
  for (int part = 0; part < 2 && at_op(":"); ++part) {
    next();
    if (!at_op(":") && !at_op("]") && !at_op(",")) e->items.push_back(expression());
  }
  close(*e);
  return e;
}

std::string_view m_text;
std::vector<Token> m_tokens;
std::vector<SyntaxError> m_errors;
std::size_t m_pos = 0;
int m_depth = 0;

}  // namespace aoti::parsers::source::py
