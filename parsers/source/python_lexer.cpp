// The Python tokenizer: strings (prefixes, triple quotes, f-strings with nested quotes in
// replacement fields), comments, line continuations, brackets, and indentation as INDENT / DEDENT.
#include <array>
#include <cctype>
#include <cstring>

#include "parsers/source/python_syntax.hpp"

namespace aoti::parsers::source::py {
namespace {

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
      } else if (c == '\\' && m_pos + 1 < m_text.size() &&
                 (m_text[m_pos + 1] == '\n' || m_text[m_pos + 1] == '\r')) {
        m_pos += m_text[m_pos + 1] == '\r' && m_pos + 2 < m_text.size() && m_text[m_pos + 2] == '\n'
                     ? 3
                     : 2;
        ++m_line;
        m_line_start = m_pos;
      } else if (string_start()) {
        string_literal();
      } else if (is_name_start(static_cast<unsigned char>(c))) {
        const std::size_t b = m_pos;
        while (m_pos < m_text.size() && is_name_char(static_cast<unsigned char>(m_text[m_pos])))
          ++m_pos;
        push(Tok::name, b, m_pos - b);
      } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                 (c == '.' && m_pos + 1 < m_text.size() &&
                  std::isdigit(static_cast<unsigned char>(m_text[m_pos + 1])))) {
        number();
      } else {
        op();
      }
    }
    if (last_is_code()) push(Tok::newline, m_pos, 0);
    if (m_depth > 0)
      error(m_line, 1,
            "unexpected end of file: " + std::to_string(m_depth) + " bracket(s) not closed");
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
    m_out.tokens.push_back({kind, m_text.substr(begin, length), m_line,
                            static_cast<int>(begin - m_line_start) + 1, begin});
  }

  void error(int line, int column, std::string message) {
    if (m_out.errors.size() < k_max_syntax_errors)
      m_out.errors.push_back({line, column, std::move(message)});
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
      if (m_text[p] == ' ')
        ++width;
      else if (m_text[p] == '\t')
        width = (width / 8 + 1) * 8;
      else if (m_text[p] == '\f')
        width = 0;
      else
        break;
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
    for (int i = 0;
         i < 2 && p < m_text.size() && m_text[p] != '\0' && std::strchr("rRbBuUfF", m_text[p]); ++i)
      ++p;
    return p < m_text.size() && (m_text[p] == '\'' || m_text[p] == '"') &&
           (p == m_pos || m_pos == 0 ||
            !is_name_char(static_cast<unsigned char>(m_text[m_pos - 1])));
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
        if (m_text[m_pos + 1] == '\n') {
          m_pos += 2;
          ++m_line;
          m_line_start = m_pos;
          continue;
        }
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
        if (braces == 0 && m_pos + 1 < m_text.size() && m_text[m_pos + 1] == '{') {
          m_pos += 2;
          continue;
        }
        ++braces;
      } else if (formatted && c == '}' && braces > 0) {
        --braces;
      } else if (formatted && braces > 0 && (c == '\'' || c == '"') && c != quote) {
        const std::size_t end = m_text.find(c, m_pos + 1);
        if (end != std::string_view::npos &&
            m_text.substr(m_pos, end - m_pos).find('\n') == std::string_view::npos) {
          m_pos = end + 1;
          continue;
        }
      } else if (c == quote && braces == 0 &&
                 (!triple || m_text.substr(m_pos, 3) == std::string(3, quote))) {
        m_pos += triple ? 3 : 1;
        closed = true;
        break;
      }
      ++m_pos;
    }
    if (!closed)
      error(line, column,
            triple ? "unterminated triple-quoted string" : "unterminated string literal");
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
    static constexpr std::array<std::string_view, 20> k_two{
        "**", "//", "==", "!=", "<=", ">=", "->", "+=", "-=", "*=",
        "/=", "%=", "&=", "|=", "^=", "@=", ":=", "<<", ">>", "<>"};
    const std::string_view rest = m_text.substr(m_pos, 3);
    for (std::string_view t : k_three)
      if (rest.starts_with(t)) return emit_op(t.size());
    for (std::string_view t : k_two)
      if (rest.starts_with(t)) return emit_op(t.size());
    const char c = m_text[m_pos];
    if (c != '\0' && std::strchr("()[]{}:,;.+-*/%&|^~<>=@!", c)) return emit_op(1);
    error(m_line, static_cast<int>(m_pos - m_line_start) + 1,
          std::string("invalid character '") + c + "'");
    ++m_pos;
  }

  void emit_op(std::size_t length) {
    const char c = m_text[m_pos];
    if (length == 1 && (c == '(' || c == '[' || c == '{')) ++m_depth;
    if (length == 1 && (c == ')' || c == ']' || c == '}')) {
      if (m_depth == 0)
        error(m_line, static_cast<int>(m_pos - m_line_start) + 1,
              std::string("unmatched '") + c + "'");
      else
        --m_depth;
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

}  // namespace

Lexed tokenize(std::string_view text) { return Lexer(text).run(); }

}  // namespace aoti::parsers::source::py
