// Inside the Python parser (python_syntax.hpp is its interface): the token cursor, and the
// expression parser the statement parser (python_parser.cpp) builds on.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/source/python_syntax.hpp"

namespace aoti::parsers::source::py {

inline constexpr int k_max_depth = 200;  // expression / block nesting, as CPython's parser limit

// Thrown inside the parser only, caught per statement: the statement is skipped.
struct ParseFailure {
  SyntaxError error;
};

bool is_keyword(std::string_view s);

// Lookahead over the lexed tokens; the expectations throw ParseFailure at the token that broke
// them.
class TokenCursor {
 public:
  TokenCursor(std::string_view text, Lexed lexed)
      : m_text(text), m_tokens(std::move(lexed.tokens)), m_errors(std::move(lexed.errors)) {}

 protected:
  const Token& peek(std::size_t ahead = 0) const {
    return m_tokens[std::min(m_pos + ahead, m_tokens.size() - 1)];
  }
  bool at(Tok kind) const { return peek().kind == kind; }
  bool at_op(std::string_view s) const { return peek().kind == Tok::op && peek().text == s; }
  bool at_kw(std::string_view s) const { return peek().kind == Tok::name && peek().text == s; }
  const Token& next() {
    const Token& t = peek();
    if (m_pos < m_tokens.size() - 1) ++m_pos;
    return t;
  }
  [[noreturn]] void failure(const std::string& message) const;
  void expect_op(std::string_view s) {
    if (!at_op(s)) failure("expected '" + std::string(s) + "'");
    next();
  }
  std::string expect_name();

  // Bounds the recursion of hostile nesting: past k_max_depth levels the statement fails.
  struct DepthGuard {
    explicit DepthGuard(TokenCursor& p) : m_p(p) {
      if (++m_p.m_depth > k_max_depth) {
        --m_p.m_depth;
        m_p.failure("too deeply nested");
      }
    }
    ~DepthGuard() { --m_p.m_depth; }
    TokenCursor& m_p;
  };

  std::string_view m_text;
  std::vector<Token> m_tokens;
  std::vector<SyntaxError> m_errors;
  std::size_t m_pos = 0;
  int m_depth = 0;
};

class ExpressionParser : protected TokenCursor {
 public:
  using TokenCursor::TokenCursor;

 protected:
  // What statements start from.
  ExprPtr expression();
  ExprPtr named_expression();     // `x := value` where Python allows it: if / while tests
  ExprPtr expression_list();      // a, b, c (a tuple when there is a comma)
  ExprPtr target_list();          // for-loop and comprehension targets, up to `in`
  ExprPtr binary(int level);      // a `with ... as` target: no comparison, no conditional
  ExprPtr postfix(ExprPtr base);  // a class's bases: the `(...)` after its name
  ExprPtr name_expr(const Token& t);

 private:
  ExprPtr make(Expr::Kind kind, const Token& at_token, std::string text = {});
  ExprPtr wrap(Expr::Kind kind, ExprPtr first, std::string text = {});
  void close(Expr& e);
  ExprPtr star_or_expression();
  ExprPtr or_test();
  ExprPtr and_test();
  ExprPtr not_test();
  ExprPtr comparison();
  ExprPtr joined(ExprPtr left, std::string op, ExprPtr right);
  ExprPtr unary();
  ExprPtr atom();
  ExprPtr collection(Expr::Kind kind, std::string_view closer);
  ExprPtr named_or_yield();
  ExprPtr comprehension(ExprPtr element);
  ExprPtr call(ExprPtr func);
  ExprPtr subscript_list();
  ExprPtr slice_item();
};

}  // namespace aoti::parsers::source::py
