#include "parsers/source/clang_cursor.hpp"

#include <exception>
#include <utility>

namespace aoti::parsers::source {

std::string take(CXString s) {
  const char* c = clang_getCString(s);
  std::string out = c ? c : "";
  clang_disposeString(s);
  return out;
}

std::string spelling(CXCursor c) { return take(clang_getCursorSpelling(c)); }

namespace {

// What one clang_visitChildren call collects. Its callback runs inside libclang's C frames, which
// an exception must not unwind through: one thrown there (push_back's bad_alloc) is kept here and
// rethrown once libclang has returned.
struct ChildList {
  std::vector<CXCursor> cursors;
  std::exception_ptr error;
};

CXChildVisitResult add_child(CXCursor child, CXCursor /*parent*/, CXClientData data) noexcept {
  auto& list = *static_cast<ChildList*>(data);
  try {
    list.cursors.push_back(child);
    return CXChildVisit_Continue;
  } catch (...) {
    list.error = std::current_exception();
    return CXChildVisit_Break;
  }
}

}  // namespace

std::vector<CXCursor> children(CXCursor c) {
  ChildList list;
  clang_visitChildren(c, add_child, &list);
  if (list.error) std::rethrow_exception(list.error);
  return std::move(list.cursors);
}

bool in_system_header(CXCursor c) {
  return clang_Location_isInSystemHeader(clang_getCursorLocation(c)) != 0;
}

std::string parent_name(CXCursor c) { return spelling(clang_getCursorSemanticParent(c)); }

std::string enclosing_namespace(CXCursor c) {
  for (CXCursor p = clang_getCursorSemanticParent(c);
       !clang_Cursor_isNull(p) && clang_getCursorKind(p) != CXCursor_TranslationUnit;
       p = clang_getCursorSemanticParent(p)) {
    if (clang_getCursorKind(p) == CXCursor_Namespace) return spelling(p);
  }
  return {};
}

CXCursor callee_of(CXCursor call) { return clang_getCursorReferenced(call); }

Place MainFile::place_of(CXSourceLocation loc) const {
  Place p;
  CXFile file = nullptr;
  unsigned line = 0, column = 0, offset = 0;
  // A macro argument is where the user wrote it (`TORCH_CHECK(x.size(0) == n)` reports the read on
  // its own line); a token of a macro's body is where the macro was invoked.
  clang_getFileLocation(loc, &file, &line, &column, &offset);
  p.line = static_cast<int>(line);
  p.column = static_cast<int>(column);
  p.offset = offset;
  p.in_main = file && m_file && clang_File_isEqual(file, m_file);
  return p;
}

}  // namespace aoti::parsers::source
