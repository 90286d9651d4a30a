#include "parsers/source/python_syntax.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>

namespace aoti::parsers::source::py {
namespace {

constexpr int k_max_depth = 200;          // expression / block nesting, as CPython's parser limit
constexpr std::size_t k_max_errors = 50;  // a garbage file does not produce a million errors

bool is_name_start(unsigned char c) { return std::isalpha(c) || c == '_' || c >= 0x80; }
bool is_name_char(unsigned char c) { return std::isalnum(c) || c == '_' || c >= 0x80; }

class Lexer {
 public:
  explicit Lexer(std::string_view text) : m_text(text) {}

  Lexed run() {
    m_indents.push_back(0);
    bool at_line_start = true;
    while (m_pos < m_text.size()) {
      if (at_line_start && m_depth == 0) {
        at_line_start = !indentation();  // a blank or comment-only line: measure the next one
        if (at_line_start) continue;
      }
      const char c = m_text[m_pos];
      if (c == '\n') {
        if (m_depth == 0 && last_is_code()) push(Tok::newline, m_pos, 1);
        advance_line();
        at_line_start = m_depth == 0;  // inside brackets a newline does not start a logical line
      } else if (c == ' ' || c == '\t' || c == '\f' || c == '\r') {
        ++m_pos;
      } else if (c == '#') {
        skip_to_eol();
      } else if (c == '\\' && m_pos + 1 < m_text.size() && (m_text[m_pos + 1] == '\n' || m_text[m_pos + 1] == '\r')) {
        m_pos += m_text[m_pos + 1] == '\r' && m_pos + 2 < m_text.size() && m_text[m_pos + 2] == '\n' ? 3 : 2;
        ++m_line;
        m_line_start = m_pos;
      } else if (string_start()) {
        string_literal();
      } else if (is_name_start(static_cast<unsigned char>(c))) {
        const std::size_t b = m_pos;
        while (m_pos < m_text.size() && is_name_char(static_cast<unsigned char>(m_text[m_pos]))) ++m_pos;
        push(Tok::name, b, m_pos - b);
      } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                 (c == '.' && m_pos + 1 < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[m_pos + 1])))) {
        number();
      } else {
        op();
      }
    }
    if (last_is_code()) push(Tok::newline, m_pos, 0);
    if (m_depth > 0) error(m_line, 1, "unexpected end of file: " + std::to_string(m_depth) + " bracket(s) not closed");
    while (m_indents.size() > 1) {
      m_indents.pop_back();
      push(Tok::dedent, m_pos, 0);
    }
    push(Tok::end, m_pos, 0);
    return std::move(m_out);
  }

 private:
  bool last_is_code() const {
    if (m_out.tokens.empty()) return false;
    const Tok k = m_out.tokens.back().kind;
    return k != Tok::newline && k != Tok::indent && k != Tok::dedent;
  }

  void push(Tok kind, std::size_t begin, std::size_t length) {
    m_out.tokens.push_back({kind, m_text.substr(begin, length), m_line, static_cast<int>(begin - m_line_start) + 1, begin});
  }

  void error(int line, int column, std::string message) {
    if (m_out.errors.size() < k_max_errors) m_out.errors.push_back({line, column, std::move(message)});
  }

  void advance_line() {
    ++m_pos;
    ++m_line;
    m_line_start = m_pos;
  }

  void skip_to_eol() {
    const std::size_t nl = m_text.find('\n', m_pos);
    m_pos = nl == std::string_view::npos ? m_text.size() : nl;
  }

  // Measures the line's indentation and emits INDENT / DEDENT; false for a blank line.
  bool indentation() {
    int width = 0;
    std::size_t p = m_pos;
    for (; p < m_text.size(); ++p) {
      if (m_text[p] == ' ') ++width;
      else if (m_text[p] == '\t') width = (width / 8 + 1) * 8;
      else if (m_text[p] == '\f') width = 0;
      else break;
    }
    if (p >= m_text.size() || m_text[p] == '\n' || m_text[p] == '#' ||
        (m_text[p] == '\r' && p + 1 < m_text.size() && m_text[p + 1] == '\n')) {
      m_pos = p;
      if (p < m_text.size() && m_text[p] == '#') skip_to_eol();
      if (m_pos < m_text.size()) advance_line();
      return false;
    }
    m_pos = p;
    if (width > m_indents.back()) {
      m_indents.push_back(width);
      push(Tok::indent, m_pos, 0);
    } else {
      while (width < m_indents.back()) {
        m_indents.pop_back();
        push(Tok::dedent, m_pos, 0);
      }
      if (width != m_indents.back()) {
        error(m_line, width + 1, "unindent does not match any outer indentation level");
        m_indents.push_back(width);
        push(Tok::indent, m_pos, 0);
      }
    }
    return true;
  }

  // A quote, or a prefix of up to two letters (r, b, u, f, rb, br, fr, rf in any case) then one.
  bool string_start() const {
    std::size_t p = m_pos;
    for (int i = 0; i < 2 && p < m_text.size() && m_text[p] != '\0' && std::strchr("rRbBuUfF", m_text[p]); ++i) ++p;
    return p < m_text.size() && (m_text[p] == '\'' || m_text[p] == '"') &&
           (p == m_pos || m_pos == 0 || !is_name_char(static_cast<unsigned char>(m_text[m_pos - 1])));
  }

  void string_literal() {
    const std::size_t begin = m_pos;
    const int line = m_line;
    const int column = static_cast<int>(m_pos - m_line_start) + 1;
    bool formatted = false;
    while (m_text[m_pos] != '\'' && m_text[m_pos] != '"') {
      formatted |= m_text[m_pos] == 'f' || m_text[m_pos] == 'F';
      ++m_pos;
    }
    const char quote = m_text[m_pos];
    const bool triple = m_text.substr(m_pos, 3) == std::string(3, quote);
    m_pos += triple ? 3 : 1;
    int braces = 0;  // inside an f-string replacement field, quotes may nest (Python 3.12)
    bool closed = false;
    while (m_pos < m_text.size()) {
      const char c = m_text[m_pos];
      // Raw strings too: a backslash still keeps the next quote from closing the literal.
      if (c == '\\' && m_pos + 1 < m_text.size()) {
        if (m_text[m_pos + 1] == '\n') { m_pos += 2; ++m_line; m_line_start = m_pos; continue; }
        m_pos += 2;
        continue;
      }
      if (c == '\n') {
        if (!triple && braces == 0) break;
        ++m_pos;
        ++m_line;
        m_line_start = m_pos;
        continue;
      }
      if (formatted && c == '{') {
        if (braces == 0 && m_pos + 1 < m_text.size() && m_text[m_pos + 1] == '{') { m_pos += 2; continue; }
        ++braces;
      } else if (formatted && c == '}' && braces > 0) {
        --braces;
      } else if (formatted && braces > 0 && (c == '\'' || c == '"') && c != quote) {
        const std::size_t end = m_text.find(c, m_pos + 1);
        if (end != std::string_view::npos && m_text.substr(m_pos, end - m_pos).find('\n') == std::string_view::npos) {
          m_pos = end + 1;
          continue;
        }
      } else if (c == quote && braces == 0 && (!triple || m_text.substr(m_pos, 3) == std::string(3, quote))) {
        m_pos += triple ? 3 : 1;
        closed = true;
        break;
      }
      ++m_pos;
    }
    if (!closed) error(line, column, triple ? "unterminated triple-quoted string" : "unterminated string literal");
    m_out.tokens.push_back({Tok::string, m_text.substr(begin, m_pos - begin), line, column, begin});
  }

  void number() {
    const std::size_t b = m_pos;
    while (m_pos < m_text.size()) {
      const char c = m_text[m_pos];
      if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.') {
        ++m_pos;
      } else if ((c == '+' || c == '-') && (m_text[m_pos - 1] == 'e' || m_text[m_pos - 1] == 'E') &&
                 !(m_text.substr(b, 2) == "0x" || m_text.substr(b, 2) == "0X")) {
        ++m_pos;
      } else {
        break;
      }
    }
    push(Tok::number, b, m_pos - b);
  }

  void op() {
    static constexpr std::array<std::string_view, 5> k_three{"**=", "//=", ">>=", "<<=", "..."};
    static constexpr std::array<std::string_view, 20> k_two{"**", "//", "==", "!=", "<=", ">=", "->", "+=", "-=", "*=",
                                                            "/=", "%=", "&=", "|=", "^=", "@=", ":=", "<<", ">>", "<>"};
    const std::string_view rest = m_text.substr(m_pos, 3);
    for (std::string_view t : k_three)
      if (rest.starts_with(t)) return emit_op(t.size());
    for (std::string_view t : k_two)
      if (rest.starts_with(t)) return emit_op(t.size());
    const char c = m_text[m_pos];
    if (c != '\0' && std::strchr("()[]{}:,;.+-*/%&|^~<>=@!", c)) return emit_op(1);
    error(m_line, static_cast<int>(m_pos - m_line_start) + 1, std::string("invalid character '") + c + "'");
    ++m_pos;
  }

  void emit_op(std::size_t length) {
    const char c = m_text[m_pos];
    if (length == 1 && (c == '(' || c == '[' || c == '{')) ++m_depth;
    if (length == 1 && (c == ')' || c == ']' || c == '}')) {
      if (m_depth == 0) error(m_line, static_cast<int>(m_pos - m_line_start) + 1, std::string("unmatched '") + c + "'");
      else --m_depth;
    }
    push(Tok::op, m_pos, length);
    m_pos += length;
  }

  std::string_view m_text;
  std::size_t m_pos = 0;
  std::size_t m_line_start = 0;
  int m_line = 1;
  int m_depth = 0;
  std::vector<int> m_indents;
  Lexed m_out;
};

// Thrown inside the parser only, caught per statement: the statement is skipped.
struct ParseFailure {
  SyntaxError error;
};

constexpr std::array<std::string_view, 35> k_keywords{
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def",
    "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is",
    "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield"};

bool is_keyword(std::string_view s) { return std::find(k_keywords.begin(), k_keywords.end(), s) != k_keywords.end(); }

class Parser {
 public:
  Parser(std::string_view text, Lexed lexed) : m_text(text), m_tokens(std::move(lexed.tokens)), m_errors(std::move(lexed.errors)) {}

  Module run() {
    Module m;
    while (!at(Tok::end)) {
      if (at(Tok::dedent)) { ++m_pos; continue; }
      statement(m.body);
    }
    m.errors = std::move(m_errors);
    return m;
  }

 private:
  // ---- tokens ------------------------------------------------------------------------------------
  const Token& peek(std::size_t ahead = 0) const { return m_tokens[std::min(m_pos + ahead, m_tokens.size() - 1)]; }
  bool at(Tok kind) const { return peek().kind == kind; }
  bool at_op(std::string_view s) const { return peek().kind == Tok::op && peek().text == s; }
  bool at_kw(std::string_view s) const { return peek().kind == Tok::name && peek().text == s; }
  const Token& next() {
    const Token& t = peek();
    if (m_pos < m_tokens.size() - 1) ++m_pos;
    return t;
  }
  [[noreturn]] void failure(const std::string& message) const {
    const Token& t = peek();
    throw ParseFailure{{t.line, t.column, message + (t.kind == Tok::end ? " at end of file" : " near '" + std::string(t.text.substr(0, 40)) + "'")}};
  }
  void expect_op(std::string_view s) {
    if (!at_op(s)) failure("expected '" + std::string(s) + "'");
    next();
  }
  std::string expect_name() {
    if (!at(Tok::name) || is_keyword(peek().text)) failure("expected a name");
    return std::string(next().text);
  }

  // Skips the rest of a broken logical line, and the block it opens if any.
  void recover() {
    while (!at(Tok::newline) && !at(Tok::end)) next();
    if (at(Tok::newline)) next();
    if (at(Tok::indent)) {
      int depth = 0;
      do {
        if (at(Tok::indent)) ++depth;
        if (at(Tok::dedent)) --depth;
        next();
      } while (depth > 0 && !at(Tok::end));
    }
  }

  void record(const SyntaxError& e) {
    if (m_errors.size() < k_max_errors) m_errors.push_back(e);
  }

  struct DepthGuard {
    explicit DepthGuard(Parser& p) : m_p(p) {
      if (++m_p.m_depth > k_max_depth) {
        --m_p.m_depth;
        m_p.failure("too deeply nested");
      }
    }
    ~DepthGuard() { --m_p.m_depth; }
    Parser& m_p;
  };

  // ---- statements --------------------------------------------------------------------------------

  void statement(std::vector<StmtPtr>& out) {
    const std::size_t start = m_pos;
    try {
      if (at(Tok::indent)) {  // unexpected indent: keep its statements, at this level
        record({peek().line, peek().column, "unexpected indent"});
        next();
        block_until_dedent(out);
        return;
      }
      if (at(Tok::newline)) { next(); return; }
      if (soft_keyword_block()) {
        compound(out);
        return;
      }
      if (at_op("@") || at_kw("def") || at_kw("class") || at_kw("async") || compound_keyword()) {
        compound(out);
        return;
      }
      simple_line(out);
    } catch (const ParseFailure& f) {
      record(f.error);
      if (m_pos == start) next();
      recover();
    }
  }

  // `match x:` / `case [a, b]:`: soft keywords, told from names by the ':' ending the line.
  bool soft_keyword_block() const {
    if (!at_kw("match") && !at_kw("case")) return false;
    const Token& second = peek(1);
    if (second.kind == Tok::newline || (second.kind == Tok::op && second.text != "(" && second.text != "[" &&
                                        second.text != "{" && second.text != "-" && second.text != "*"))
      return false;
    std::size_t i = m_pos;
    while (i + 1 < m_tokens.size() && m_tokens[i + 1].kind != Tok::newline && m_tokens[i + 1].kind != Tok::end) ++i;
    return m_tokens[i].kind == Tok::op && m_tokens[i].text == ":";
  }

  bool compound_keyword() const {
    for (std::string_view k : {"if", "elif", "else", "while", "for", "with", "try", "except", "finally"})
      if (at_kw(k)) return true;
    return false;
  }

  void block_until_dedent(std::vector<StmtPtr>& out) {
    DepthGuard guard(*this);
    while (!at(Tok::dedent) && !at(Tok::end)) statement(out);
    if (at(Tok::dedent)) next();
  }

  // After the ':' of a compound header: an indented block, or simple statements on the line.
  void suite(Stmt& s) {
    if (at(Tok::newline)) {
      next();
      if (!at(Tok::indent)) failure("expected an indented block");
      next();
      block_until_dedent(s.body);
    } else {
      simple_line(s.body);
    }
    s.end_line = m_pos > 0 ? m_tokens[m_pos - 1].line : s.line;
  }

  void compound(std::vector<StmtPtr>& out) {
    auto s = std::make_unique<Stmt>();
    s->line = peek().line;
    s->column = peek().column;
    while (at_op("@")) {
      next();
      s->decorators.push_back(expression());
      if (!at(Tok::newline)) failure("expected a newline after the decorator");
      next();
    }
    if (at_kw("async")) next();
    const Token& head = next();
    const std::string_view kw = head.text;
    if (!s->decorators.empty() && kw != "def" && kw != "class") failure("expected def or class after decorators");
    if (kw == "def") {
      s->kind = Stmt::Kind::def;
      s->line = head.line;
      s->column = head.column;
      s->name = expect_name();
      parameters(*s);
      if (at_op("->")) {
        next();
        s->exprs.push_back(expression());
      }
    } else if (kw == "class") {
      s->kind = Stmt::Kind::cls;
      s->name = expect_name();
      if (at_op("(")) s->exprs.push_back(postfix(name_expr(head)));
    } else if (kw == "if" || kw == "elif" || kw == "while") {
      s->kind = kw == "while" ? Stmt::Kind::while_ : Stmt::Kind::if_;
      s->exprs.push_back(named_expression());
    } else if (kw == "for") {
      s->kind = Stmt::Kind::for_;
      s->exprs.push_back(target_list());
      if (!at_kw("in")) failure("expected 'in'");
      next();
      s->exprs.push_back(expression_list());
    } else if (kw == "with") {
      s->kind = Stmt::Kind::with;
      do {
        s->exprs.push_back(expression());
        if (at_kw("as")) { next(); s->exprs.push_back(binary(0)); }
      } while (at_op(",") && (next(), true));
    } else if (kw == "match" || kw == "case") {
      s->kind = Stmt::Kind::block;
      while (!at_op(":") || peek(1).kind != Tok::newline) {
        if (at(Tok::newline) || at(Tok::end)) failure("expected ':'");
        next();
      }
    } else {  // else, try, except, finally
      s->kind = Stmt::Kind::block;
      if (kw == "except") {
        if (at_op("*")) next();
        if (!at_op(":")) s->exprs.push_back(expression());
        if (at_kw("as")) { next(); expect_name(); }
      }
    }
    expect_op(":");
    suite(*s);
    out.push_back(std::move(s));
  }

  void parameters(Stmt& s) {
    expect_op("(");
    while (!at_op(")")) {
      Param p;
      if (at_op("/")) { next(); if (!at_op(")")) expect_op(","); continue; }
      if (at_op("*") || at_op("**")) {
        p.variadic = true;
        next();
        if (at_op(",") || at_op(")")) { if (at_op(",")) next(); continue; }  // bare *
      }
      p.line = peek().line;
      p.column = peek().column;
      p.name = expect_name();
      if (at_op(":")) {
        next();
        const ExprPtr annotation = expression();
        p.annotation = std::string(m_text.substr(annotation->begin, annotation->end - annotation->begin));
      }
      if (at_op("=")) { next(); expression(); }
      s.params.push_back(std::move(p));
      if (!at_op(")")) expect_op(",");
    }
    next();
  }

  // One logical line of simple statements separated by ';'.
  void simple_line(std::vector<StmtPtr>& out) {
    while (true) {
      out.push_back(simple_statement());
      if (at_op(";")) {
        next();
        if (at(Tok::newline) || at(Tok::end)) break;
        continue;
      }
      break;
    }
    if (!at(Tok::newline) && !at(Tok::end)) failure("unexpected token");
    if (at(Tok::newline)) next();
  }

  StmtPtr simple_statement() {
    auto s = std::make_unique<Stmt>();
    s->line = s->end_line = peek().line;
    s->column = peek().column;
    if (at_kw("return")) {
      next();
      s->kind = Stmt::Kind::return_;
      if (!at(Tok::newline) && !at_op(";") && !at(Tok::end)) s->exprs.push_back(expression_list());
    } else if (at_kw("assert")) {
      next();
      s->kind = Stmt::Kind::assert_;
      s->exprs.push_back(expression());
      if (at_op(",")) { next(); s->exprs.push_back(expression()); }
    } else if (at_kw("pass") || at_kw("break") || at_kw("continue") || at_kw("import") || at_kw("from") ||
               at_kw("global") || at_kw("nonlocal")) {
      while (!at(Tok::newline) && !at_op(";") && !at(Tok::end)) next();
    } else if (at_kw("raise") || at_kw("del")) {
      next();
      if (!at(Tok::newline) && !at_op(";") && !at(Tok::end)) s->exprs.push_back(expression_list());
      if (at_kw("from")) { next(); s->exprs.push_back(expression()); }
    } else {
      s->kind = Stmt::Kind::expr;
      s->exprs.push_back(expression_list());
      if (at_op(":")) {  // annotated assignment
        next();
        expression();
        if (at_op("=")) { s->kind = Stmt::Kind::assign; next(); s->exprs.push_back(expression_list()); }
      } else if (at_op("=")) {
        s->kind = Stmt::Kind::assign;
        while (at_op("=")) { next(); s->exprs.push_back(expression_list()); }
      } else if (peek().kind == Tok::op && peek().text.size() >= 2 && peek().text.back() == '=' &&
                 peek().text != "==" && peek().text != "<=" && peek().text != ">=" && peek().text != "!=") {
        s->kind = Stmt::Kind::assign;  // augmented assignment
        next();
        s->exprs.push_back(expression_list());
      }
    }
    return s;
  }

  // ---- expressions -------------------------------------------------------------------------------

  ExprPtr make(Expr::Kind kind, const Token& at_token, std::string text = {}) {
    auto e = std::make_unique<Expr>();
    e->kind = kind;
    e->text = std::move(text);
    e->line = at_token.line;
    e->column = at_token.column;
    e->begin = at_token.offset;
    e->end = at_token.offset + at_token.text.size();
    return e;
  }
  ExprPtr wrap(Expr::Kind kind, ExprPtr first, std::string text = {}) {
    auto e = std::make_unique<Expr>();
    e->kind = kind;
    e->text = std::move(text);
    e->line = first->line;
    e->column = first->column;
    e->begin = first->begin;
    e->end = first->end;
    e->items.push_back(std::move(first));
    return e;
  }
  void close(Expr& e) { e.end = std::max(e.end, m_tokens[m_pos > 0 ? m_pos - 1 : 0].offset + m_tokens[m_pos > 0 ? m_pos - 1 : 0].text.size()); }

  ExprPtr name_expr(const Token& t) { return make(Expr::Kind::name, t, std::string(t.text)); }

  // a, b, c (a tuple when there is a comma)
  ExprPtr expression_list() {
    ExprPtr first = star_or_expression();
    if (!at_op(",")) return first;
    ExprPtr tuple = wrap(Expr::Kind::tuple, std::move(first));
    while (at_op(",")) {
      next();
      if (at(Tok::newline) || at_op("=") || at_op(")") || at_op(";") || at(Tok::end) || at_op(":")) break;
      tuple->items.push_back(star_or_expression());
    }
    close(*tuple);
    return tuple;
  }

  // for-loop and comprehension targets: stop before `in`.
  ExprPtr target_list() {
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

  ExprPtr star_or_expression() {
    if (at_op("*")) {
      const Token& t = next();
      ExprPtr e = make(Expr::Kind::starred, t);
      e->items.push_back(binary(0));
      close(*e);
      return e;
    }
    return expression();
  }

  ExprPtr named_expression() {
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

  ExprPtr expression() {
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
      if (!at(Tok::newline) && !at_op(")") && !at_op(";") && !at_op("=")) e->items.push_back(expression_list());
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

  ExprPtr or_test() {
    ExprPtr left = and_test();
    while (at_kw("or")) {
      next();
      left = joined(std::move(left), "or", and_test());
    }
    return left;
  }
  ExprPtr and_test() {
    ExprPtr left = not_test();
    while (at_kw("and")) {
      next();
      left = joined(std::move(left), "and", not_test());
    }
    return left;
  }
  ExprPtr not_test() {
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
  ExprPtr comparison() {
    ExprPtr left = binary(0);
    while (true) {
      std::string op;
      if (peek().kind == Tok::op && (peek().text == "<" || peek().text == ">" || peek().text == "==" || peek().text == ">=" ||
                                     peek().text == "<=" || peek().text == "!=")) {
        op = std::string(next().text);
      } else if (at_kw("in")) {
        next();
        op = "in";
      } else if (at_kw("not") && peek(1).kind == Tok::name && peek(1).text == "in") {
        next(); next();
        op = "not in";
      } else if (at_kw("is")) {
        next();
        op = "is";
        if (at_kw("not")) { next(); op = "is not"; }
      } else {
        break;
      }
      left = joined(std::move(left), op, binary(0));
    }
    return left;
  }

  ExprPtr joined(ExprPtr left, std::string op, ExprPtr right) {
    ExprPtr e = wrap(Expr::Kind::binary, std::move(left), std::move(op));
    e->end = right->end;
    e->items.push_back(std::move(right));
    return e;
  }

  // Binary operators by precedence: | ^ & (<< >>) (+ -) (* / // % @); then unary, **, await.
  ExprPtr binary(int level) {
    static constexpr std::array<std::array<std::string_view, 5>, 6> k_levels{{
        {"|"}, {"^"}, {"&"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "//", "%", "@"}}};
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

  ExprPtr unary() {
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

  ExprPtr atom() {
    const Token& t = peek();
    if (t.kind == Tok::name) {
      if (is_keyword(t.text) && t.text != "None" && t.text != "True" && t.text != "False") failure("unexpected keyword");
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
  ExprPtr collection(Expr::Kind kind, std::string_view closer) {
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

  ExprPtr named_or_yield() { return at_kw("yield") ? expression() : at_op("*") ? star_or_expression() : named_expression(); }

  ExprPtr comprehension(ExprPtr element) {
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

  ExprPtr postfix(ExprPtr base) {
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

  ExprPtr call(ExprPtr func) {
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
      if (at_op(",")) next();
      else if (!at_op(")")) failure("expected ',' or ')'");
    }
    next();
    close(*e);
    return e;
  }

  ExprPtr subscript_list() {
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

  ExprPtr slice_item() {
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
};

}  // namespace

Lexed tokenize(std::string_view text) { return Lexer(text).run(); }

Module parse(std::string_view text) { return Parser(text, tokenize(text)).run(); }

}  // namespace aoti::parsers::source::py
