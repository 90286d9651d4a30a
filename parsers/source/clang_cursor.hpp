// libclang's C API in the shape the C++ front end walks it: strings taken out of CXString, the
// children of a cursor, a bounded descendant search, and where a cursor is in the analyzed file.
// Internal to parsers/source.
#pragma once

#include "parsers/source/libclang.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace aoti::parsers::source {

inline constexpr int k_max_ast_depth = 512;  // recursion bound for hostile nesting

std::string take(CXString s);  // the text, and the CXString disposed
std::string spelling(CXCursor c);
// The direct children; an exception while collecting them is rethrown after libclang returns.
std::vector<CXCursor> children(CXCursor c);

// Pre-order search of a subtree; `visit` returns true to stop.
template <class F>
bool any_descendant(CXCursor c, F&& visit, int depth = 0) {
  if (depth > k_max_ast_depth) return false;
  for (CXCursor child : children(c)) {
    if (visit(child) || any_descendant(child, visit, depth + 1)) return true;
  }
  return false;
}

bool in_system_header(CXCursor c);
std::string parent_name(CXCursor c);
// The namespace a declaration sits in ("at", "torch", "c10"), looking through classes.
std::string enclosing_namespace(CXCursor c);
// The called declaration of a CallExpr, null when the call did not resolve (broken code).
CXCursor callee_of(CXCursor call);

struct Place {
  int line = 0;
  int column = 0;
  unsigned offset = 0;
  bool in_main = false;  // written in the analyzed file (directly or as a macro invocation there)
};

// The analyzed file inside its translation unit: its text, and where cursors are in it as the
// user wrote them: a macro argument where it is written, the rest of a macro at its invocation.
class MainFile {
 public:
  MainFile(CXTranslationUnit tu, const std::string& path, std::string_view text)
      : m_file(clang_getFile(tu, path.c_str())), m_text(text) {}

  std::string_view text() const { return m_text; }
  Place place_of(CXSourceLocation loc) const;
  Place start_of(CXCursor c) const {
    return place_of(clang_getRangeStart(clang_getCursorExtent(c)));
  }
  Place end_of(CXCursor c) const { return place_of(clang_getRangeEnd(clang_getCursorExtent(c))); }

 private:
  CXFile m_file;
  std::string_view m_text;
};

}  // namespace aoti::parsers::source
