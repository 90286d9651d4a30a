// A small Python reader: tokenizer and statement/expression tree, enough for the fake-kernel
// rules (decorators, def, return, if/elif/while/for/assert, calls, subscripts, attribute chains).
//
// Hand-written because Debian 12 packages no tree-sitter Python grammar and embedding CPython
// would make the analyzer depend on a Python runtime; regular expressions cannot tell a string or
// comment from code, nor follow brackets across lines. It is bounded (nesting depth, token count
// follows the file size) and never throws out of parse(): a syntax error becomes an error entry
// and parsing resumes at the next logical line.
//
// python_lexer.cpp tokenizes; python_parser.cpp reads statements and python_expressions.cpp
// expressions.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace aoti::parsers::source::py {

enum class Tok { name, number, string, op, newline, indent, dedent, end };

struct Token {
  Tok kind = Tok::end;
  std::string_view text;  // into the source; for strings the literal with prefix and quotes
  int line = 0;           // 1-based
  int column = 0;         // 1-based, bytes
  std::size_t offset = 0;
};

struct SyntaxError {
  int line = 0;
  int column = 0;
  std::string message;
};
// Lexed::errors and Module::errors keep at most this many: a garbage file does not produce a
// million errors.
inline constexpr std::size_t k_max_syntax_errors = 50;

struct Lexed {
  std::vector<Token> tokens;  // always ends with Tok::end
  std::vector<SyntaxError> errors;
};

// Strings (prefixes, triple quotes, f-strings with nested quotes in replacement fields),
// comments, line continuations, brackets, and indentation as INDENT / DEDENT tokens.
Lexed tokenize(std::string_view text);

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct Expr {
  enum class Kind {
    name,       // text: the identifier
    number,     // text: as written
    string,     // text: the literal(s) as written
    attribute,  // items[0].text
    call,       // items[0](items[1..]); keyword arguments are `keyword` items
    subscript,  // items[0][items[1]]
    keyword,    // text=items[0] (a call's keyword argument), or **items[0] with empty text
    starred,    // *items[0]
    tuple,
    list,
    set,
    dict,
    binary,         // items[0] text items[1]: arithmetic, comparison, `and`/`or`
    unary,          // text items[0]: `-`, `not`, `~`, `await`
    ifexp,          // items[0] if items[1] else items[2]
    lambda,         // body in items[0]
    slice,          // a[b:c:d]: the present parts
    comprehension,  // items[0] for ...: then per clause an `other` "for" holding the target, the
                    // iterable, the ifs
    other,
  };
  Kind kind = Kind::other;
  std::string text;
  int line = 0;
  int column = 0;
  std::size_t begin = 0;  // byte offsets of the expression's source
  std::size_t end = 0;
  // Links of the left-leaning chain this node ends (a.b.c, f()()[0], a + b + c): built by a loop,
  // not by recursion, so the parser bounds it with its nesting depth.
  int chain = 1;
  std::vector<ExprPtr> items;
};

struct Param {
  std::string name;
  std::string annotation;  // source text of the annotation, "" when none
  int line = 0;
  int column = 0;
  bool variadic = false;  // *args / **kwargs
};

struct Stmt;
using StmtPtr = std::unique_ptr<Stmt>;

struct Stmt {
  enum class Kind {
    def,
    cls,
    if_,
    while_,
    for_,
    with,
    block,
    assert_,
    return_,
    assign,
    expr,
    other
  };
  Kind kind = Kind::other;
  int line = 0;
  int end_line = 0;
  int column = 0;
  std::string name;           // def / class
  std::vector<Param> params;  // def
  std::vector<ExprPtr> decorators;
  // if_/while_: [test]; for_: [target, iter]; with: items; assert_: [test, message?];
  // return_: [value?]; assign: [targets..., value]; expr: [expr]; other: expressions read.
  std::vector<ExprPtr> exprs;
  std::vector<StmtPtr> body;  // compound statements (elif/else/except/finally are siblings)
};

struct Module {
  std::vector<StmtPtr> body;
  std::vector<SyntaxError> errors;
};

Module parse(std::string_view text);

}  // namespace aoti::parsers::source::py
