#include "parsers/source/cuda_kernels.hpp"

#include <algorithm>
#include <string>
#include <string_view>

namespace aoti::parsers::source {
namespace {

// Kernels and launches one file can hold before the rest is not recorded (a hostile file).
constexpr std::size_t k_max_kernels = 4096;
constexpr std::size_t k_max_launches = 4096;

bool is_function(CXCursorKind kind) {
  return kind == CXCursor_FunctionDecl || kind == CXCursor_FunctionTemplate ||
         kind == CXCursor_CXXMethod;
}

bool is_global(CXCursor function) {
  for (CXCursor child : children(function))
    if (clang_getCursorKind(child) == CXCursor_CUDAGlobalAttr) return true;
  return false;
}

CXCursor body_of(CXCursor function) {
  for (CXCursor child : children(function))
    if (clang_getCursorKind(child) == CXCursor_CompoundStmt) return child;
  return clang_getNullCursor();
}

// "ns::name" from the namespaces (and classes) the declaration sits in.
std::string qualified(CXCursor c) {
  std::string out = spelling(c);
  for (CXCursor p = clang_getCursorSemanticParent(c);
       !clang_Cursor_isNull(p) && clang_getCursorKind(p) != CXCursor_TranslationUnit;
       p = clang_getCursorSemanticParent(p)) {
    const std::string name = spelling(p);
    if (name.empty()) break;  // an anonymous namespace: the symbol is qualified by it, unnamed
    out = name + "::" + out;
  }
  return out;
}

// Function definitions written in the analyzed file, through namespaces and classes.
void definitions(CXCursor parent, const MainFile& file, std::vector<CXCursor>& out, int depth = 0) {
  if (depth > k_max_ast_depth) return;
  for (CXCursor c : children(parent)) {
    const CXCursorKind kind = clang_getCursorKind(c);
    if (kind == CXCursor_Namespace || kind == CXCursor_ClassDecl || kind == CXCursor_StructDecl ||
        kind == CXCursor_LinkageSpec)
      definitions(c, file, out, depth + 1);
    else if (is_function(kind) && clang_isCursorDefinition(c) && file.start_of(c).in_main)
      out.push_back(c);
  }
}

// The whole line holding byte `offset`, without its newline, cut at k_max_kept_line bytes.
std::string line_text(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  const std::size_t begin = text.rfind('\n', offset == 0 ? 0 : offset - 1);
  const std::size_t start = begin == std::string_view::npos || offset == 0 ? 0 : begin + 1;
  std::string_view row = text.substr(start, std::min(text.find('\n', offset), text.size()) - start);
  if (row.ends_with('\r')) row.remove_suffix(1);
  return std::string(row.substr(0, model::SourceCudaKernel::k_max_kept_line));
}

}  // namespace

std::vector<model::SourceCudaKernel> collect_cuda_kernels(CXTranslationUnit tu,
                                                          const MainFile& file) {
  std::vector<model::SourceCudaKernel> kernels;
  std::vector<CXCursor> functions;
  definitions(clang_getTranslationUnitCursor(tu), file, functions);
  std::vector<CXCursor> kernel_cursors;
  for (CXCursor f : functions) {
    if (kernels.size() >= k_max_kernels || !is_global(f)) continue;
    model::SourceCudaKernel k;
    k.name = spelling(f);
    k.qualified_name = qualified(f);
    k.line = file.place_of(clang_getCursorLocation(f)).line;
    // A template kernel's instantiations are the same definition, at the same place.
    if (std::any_of(kernels.begin(), kernels.end(), [&](const model::SourceCudaKernel& other) {
          return other.qualified_name == k.qualified_name && other.line == k.line;
        }))
      continue;
    k.parameters = std::max(clang_Cursor_getNumArguments(f), 0);
    k.line = file.place_of(clang_getCursorLocation(f)).line;
    k.line_begin = file.start_of(f).line;
    k.line_end = file.end_of(f).line;
    if (const CXCursor body = body_of(f); !clang_Cursor_isNull(body))
      k.body_line = file.start_of(body).line;
    // The definition's own lines, to quote from.
    const std::string_view text = file.text();
    if (k.line_begin > 0 && k.line_end >= k.line_begin &&
        static_cast<std::size_t>(k.line_end - k.line_begin) <
            model::SourceCudaKernel::k_max_kept_lines) {
      std::size_t at = 0;
      for (int line = 1; line < k.line_begin && at != std::string_view::npos; ++line) {
        at = text.find('\n', at);
        if (at != std::string_view::npos) ++at;
      }
      for (int line = k.line_begin;
           line <= k.line_end && at != std::string_view::npos && at <= text.size(); ++line) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        std::string_view row = text.substr(at, end - at);
        if (row.ends_with('\r')) row.remove_suffix(1);
        k.text.emplace_back(row.substr(0, model::SourceCudaKernel::k_max_kept_line));
        at = end < text.size() ? end + 1 : std::string_view::npos;
      }
      if (k.text.size() != static_cast<std::size_t>(k.line_end - k.line_begin + 1)) k.text.clear();
    }
    kernels.push_back(std::move(k));
    kernel_cursors.push_back(f);
  }
  if (kernels.empty()) return kernels;

  // Launches: a call whose written text holds `<<<` and whose callee is one of the kernels (a
  // template kernel's instantiation is matched to its template by name).
  std::size_t launches = 0;
  for (CXCursor f : functions) {
    if (is_global(f)) continue;
    const CXCursor body = body_of(f);
    if (clang_Cursor_isNull(body)) continue;
    const std::string host = spelling(f);
    any_descendant(body, [&](CXCursor c) {
      if (clang_getCursorKind(c) != CXCursor_CallExpr) return false;
      const Place begin = file.start_of(c);
      const Place end = file.end_of(c);
      if (!begin.in_main || !end.in_main || end.offset <= begin.offset ||
          file.text().substr(begin.offset, end.offset - begin.offset).find("<<<") ==
              std::string_view::npos)
        return false;
      const CXCursor callee = callee_of(c);
      if (clang_Cursor_isNull(callee)) return false;
      const std::string name = spelling(callee);
      for (std::size_t i = 0; i < kernels.size(); ++i) {
        const bool same =
            clang_equalCursors(clang_getCursorDefinition(callee), kernel_cursors[i]) ||
            name == kernels[i].name;
        if (!same) continue;
        kernels[i].launches.push_back({host, begin.line, line_text(file.text(), begin.offset)});
        ++launches;
        break;
      }
      return launches >= k_max_launches;
    });
  }
  return kernels;
}

}  // namespace aoti::parsers::source
