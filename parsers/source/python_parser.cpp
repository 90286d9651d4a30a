// The statement half of the Python parser: logical lines, compound statements and their blocks,
// decorators and parameters; a broken statement is recorded and skipped.
#include <memory>

#include "parsers/source/python_expressions.hpp"
#include "parsers/source/python_syntax.hpp"

namespace aoti::parsers::source::py {
namespace {

class Parser : ExpressionParser {
 public:
  using ExpressionParser::ExpressionParser;

  Module run() {
    Module m;
    while (!at(Tok::end)) {
      if (at(Tok::dedent)) {
        ++m_pos;
        continue;
      }
      statement(m.body);
    }
    m.errors = std::move(m_errors);
    return m;
  }

 private:
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
    if (m_errors.size() < k_max_syntax_errors) m_errors.push_back(e);
  }

  // ---- statements
  // --------------------------------------------------------------------------------

  void statement(std::vector<StmtPtr>& out) {
    const std::size_t start = m_pos;
    try {
      if (at(Tok::indent)) {  // unexpected indent: keep its statements, at this level
        record({peek().line, peek().column, "unexpected indent"});
        next();
        block_until_dedent(out);
        return;
      }
      if (at(Tok::newline)) {
        next();
        return;
      }
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
    if (second.kind == Tok::newline ||
        (second.kind == Tok::op && second.text != "(" && second.text != "[" && second.text != "{" &&
         second.text != "-" && second.text != "*"))
      return false;
    std::size_t i = m_pos;
    while (i + 1 < m_tokens.size() && m_tokens[i + 1].kind != Tok::newline &&
           m_tokens[i + 1].kind != Tok::end)
      ++i;
    return m_tokens[i].kind == Tok::op && m_tokens[i].text == ":";
  }

  bool compound_keyword() const {
    for (std::string_view k :
         {"if", "elif", "else", "while", "for", "with", "try", "except", "finally"})
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
    if (!s->decorators.empty() && kw != "def" && kw != "class")
      failure("expected def or class after decorators");
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
        if (at_kw("as")) {
          next();
          s->exprs.push_back(binary(0));
        }
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
        if (at_kw("as")) {
          next();
          expect_name();
        }
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
      if (at_op("/")) {
        next();
        if (!at_op(")")) expect_op(",");
        continue;
      }
      if (at_op("*") || at_op("**")) {
        p.variadic = true;
        next();
        if (at_op(",") || at_op(")")) {
          if (at_op(",")) next();
          continue;
        }  // bare *
      }
      p.line = peek().line;
      p.column = peek().column;
      p.name = expect_name();
      if (at_op(":")) {
        next();
        const ExprPtr annotation = expression();
        p.annotation =
            std::string(m_text.substr(annotation->begin, annotation->end - annotation->begin));
      }
      if (at_op("=")) {
        next();
        expression();
      }
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
      if (at_op(",")) {
        next();
        s->exprs.push_back(expression());
      }
    } else if (at_kw("pass") || at_kw("break") || at_kw("continue") || at_kw("import") ||
               at_kw("from") || at_kw("global") || at_kw("nonlocal")) {
      while (!at(Tok::newline) && !at_op(";") && !at(Tok::end)) next();
    } else if (at_kw("raise") || at_kw("del")) {
      next();
      if (!at(Tok::newline) && !at_op(";") && !at(Tok::end)) s->exprs.push_back(expression_list());
      if (at_kw("from")) {
        next();
        s->exprs.push_back(expression());
      }
    } else {
      s->kind = Stmt::Kind::expr;
      s->exprs.push_back(expression_list());
      if (at_op(":")) {  // annotated assignment
        next();
        expression();
        if (at_op("=")) {
          s->kind = Stmt::Kind::assign;
          next();
          s->exprs.push_back(expression_list());
        }
      } else if (at_op("=")) {
        s->kind = Stmt::Kind::assign;
        while (at_op("=")) {
          next();
          s->exprs.push_back(expression_list());
        }
      } else if (peek().kind == Tok::op && peek().text.size() >= 2 && peek().text.back() == '=' &&
                 peek().text != "==" && peek().text != "<=" && peek().text != ">=" &&
                 peek().text != "!=") {
        s->kind = Stmt::Kind::assign;  // augmented assignment
        next();
        s->exprs.push_back(expression_list());
      }
    }
    return s;
  }
};

}  // namespace

Module parse(std::string_view text) { return Parser(text, tokenize(text)).run(); }

}  // namespace aoti::parsers::source::py
