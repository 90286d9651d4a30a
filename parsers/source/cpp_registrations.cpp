#include "parsers/source/cpp_registrations.hpp"

#include "util/text.hpp"
#include "util/utf8.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <string_view>
#include <utility>

namespace aoti::parsers::source {
namespace {

// What a registration block declares: TORCH_LIBRARY(ns, m) / _FRAGMENT / _IMPL(ns, Key, m).
struct Block {
  std::string ns;
  std::string key;  // empty for TORCH_LIBRARY / TORCH_LIBRARY_FRAGMENT
};

// Reads the macro invocation at the start of a function: works with the bundled declarations
// and with real torch headers alike, whatever names their expansions give the function.
std::optional<Block> block_at(std::string_view text, unsigned offset) {
  if (offset >= text.size()) return std::nullopt;
  std::string_view s = text.substr(offset, 512);
  // The stable ABI's STABLE_TORCH_LIBRARY*, and a project's *_EXPAND versions (vLLM's
  // TORCH_LIBRARY_EXPAND(TORCH_EXTENSION_NAME, ops), which expand a macro as the namespace) take
  // the same arguments.
  const std::string_view spelled = util::identifier_at(s, 0);
  std::string_view macro = spelled;
  if (macro.starts_with("STABLE_")) macro.remove_prefix(7);
  if (macro.ends_with("_EXPAND")) macro.remove_suffix(7);
  if (macro != "TORCH_LIBRARY_FRAGMENT" && macro != "TORCH_LIBRARY_IMPL" &&
      macro != "TORCH_LIBRARY")
    return std::nullopt;
  const std::size_t open = s.find('(', spelled.size());
  if (open == std::string_view::npos) return std::nullopt;
  // The arguments, each whole with its own parentheses: vLLM's namespace
  // `CONCAT(TORCH_EXTENSION_NAME, _cache_ops)`.
  std::vector<std::string> args;
  std::string current;
  int depth = 0;
  bool closed = false;
  for (std::size_t i = open + 1; i < s.size() && !closed; ++i) {
    const char ch = s[i];
    if (ch == '(') ++depth;
    if (ch == ')' && depth-- == 0) closed = true;
    if (closed) break;
    if (ch == ',' && depth == 0) {
      args.push_back(current);
      current.clear();
    } else if (!std::isspace(static_cast<unsigned char>(ch))) {
      current += ch;
    }
  }
  if (!closed) return std::nullopt;
  args.push_back(current);
  // A token-pasting macro as the namespace (`CONCAT(A, B)`, `_CONCAT(A,B)`: A##B), pasted as it
  // would be; the names stay as written (TORCH_EXTENSION_NAME is the build's -D, unknown here).
  if (const auto paren = args[0].find('(');
      paren != std::string::npos && args[0].ends_with(")") &&
      args[0].substr(0, paren).find("CONCAT") != std::string::npos) {
    const std::string inner = args[0].substr(paren + 1, args[0].size() - paren - 2);
    if (const auto comma = inner.find(',');
        comma != std::string::npos && inner.find_first_of("(),", comma + 1) == std::string::npos)
      args[0] = inner.substr(0, comma) + inner.substr(comma + 1);
  }
  if (args[0].find_first_of("()") != std::string::npos) return std::nullopt;
  if (args.size() < 2 || args[0].empty()) return std::nullopt;
  Block b{args[0], {}};
  if (macro == "TORCH_LIBRARY_IMPL") {
    if (args.size() < 3) return std::nullopt;
    b.key = args[1];
  }
  return b;
}

// The text of C++ string literal tokens as clang spells them (`"a" "b"`, `R"(x)"`, `u8"x"`),
// joined and with simple escapes undone.
std::string unquote(std::string_view spelled) {
  std::string out;
  std::size_t i = 0;
  while (i < spelled.size()) {
    const std::size_t quote = spelled.find('"', i);
    if (quote == std::string_view::npos) break;
    if (quote > 0 && spelled[quote - 1] == 'R') {  // R"delim( ... )delim"
      const std::size_t open = spelled.find('(', quote);
      if (open == std::string_view::npos) break;
      std::string close =
          ")";  // appended piece by piece: GCC 12 -Wrestrict misreads the one-expression form
      close += spelled.substr(quote + 1, open - quote - 1);
      close += '"';
      const std::size_t end = spelled.find(close, open);
      if (end == std::string_view::npos) break;
      out += spelled.substr(open + 1, end - open - 1);
      i = end + close.size();
      continue;
    }
    std::size_t j = quote + 1;
    for (; j < spelled.size() && spelled[j] != '"'; ++j) {
      if (spelled[j] == '\\' && j + 1 < spelled.size()) {
        ++j;
        out += spelled[j] == 'n' ? '\n' : spelled[j] == 't' ? '\t' : spelled[j];
      } else {
        out += spelled[j];
      }
    }
    i = j + 1;
  }
  return out;
}

// The string a literal argument holds.
std::optional<std::string> string_argument(CXCursor arg) {
  std::optional<std::string> out;
  auto try_literal = [&](CXCursor c) {
    if (clang_getCursorKind(c) != CXCursor_StringLiteral) return false;
    out = unquote(spelling(c));
    return true;
  };
  if (!try_literal(arg)) any_descendant(arg, try_literal);
  return out;
}

// The dispatch key an expression names: c10::DispatchKey::Meta, torch::kMeta, c10::kCUDA.
std::optional<std::string> key_in(CXCursor arg) {
  std::optional<std::string> key;
  auto visit = [&](CXCursor c) {
    if (clang_getCursorKind(c) != CXCursor_DeclRefExpr) return false;
    const CXCursor ref = clang_getCursorReferenced(c);
    const std::string name = spelling(ref);
    if (clang_getCursorKind(ref) == CXCursor_EnumConstantDecl &&
        (parent_name(ref) == "DispatchKey" || parent_name(ref) == "DeviceType")) {
      key = name;
    } else if (clang_getCursorKind(ref) == CXCursor_VarDecl && name.size() > 1 && name[0] == 'k' &&
               std::isupper(static_cast<unsigned char>(name[1])) &&
               enclosing_namespace(ref) == "c10") {
      key = name.substr(1);
    }
    return key.has_value();
  };
  if (!visit(arg)) any_descendant(arg, visit);
  return key;
}

// The kernel an m.impl / m.def argument names: a function of the user's code or a lambda.
std::optional<CXCursor> kernel_in(CXCursor arg) {
  std::optional<CXCursor> found;
  auto visit = [&](CXCursor c) {
    const CXCursorKind kind = clang_getCursorKind(c);
    if (kind == CXCursor_LambdaExpr) {
      found = c;
      return true;
    }
    if (kind != CXCursor_DeclRefExpr) return false;
    const CXCursor ref = clang_getCursorReferenced(c);
    const CXCursorKind ref_kind = clang_getCursorKind(ref);
    if ((ref_kind == CXCursor_FunctionDecl || ref_kind == CXCursor_CXXMethod) &&
        !in_system_header(ref)) {
      found = ref;
      return true;
    }
    return false;
  };
  if (!visit(arg)) any_descendant(arg, visit);
  return found;
}

// `NAME(` at `offset`: the identifier of a call-shaped macro invocation, "" when the text there is
// something else.
std::string identifier_call_at(std::string_view text, unsigned offset) {
  std::size_t end = offset;
  while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) ||
                               text[end] == '_' || text[end] == ':'))
    ++end;
  if (end == offset || std::isdigit(static_cast<unsigned char>(text[offset]))) return {};
  std::size_t open = end;
  while (open < text.size() && std::isspace(static_cast<unsigned char>(text[open]))) ++open;
  if (open >= text.size() || text[open] != '(') return {};
  return std::string(text.substr(offset, end - offset));
}

// The dispatch key a registration macro's name says, word by word: DISPATCH_TO_META → Meta,
// DISPATCH_TO_ALL → CatchAll (FBGEMM's macros), DISPATCH_TO_AUTOGRAD_CUDA → AutogradCUDA. A name
// without a key word says nothing (nullopt); METADATA or CPUINFO are not key words.
std::optional<std::string> key_in_macro_name(std::string_view macro) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 7> k_words{{
      {"META", "Meta"},
      {"CPU", "CPU"},
      {"CUDA", "CUDA"},
      {"ALL", "CatchAll"},
      {"CIA", "CompositeImplicitAutograd"},
      {"COMPOSITEIMPLICITAUTOGRAD", "CompositeImplicitAutograd"},
      {"COMPOSITEEXPLICITAUTOGRAD", "CompositeExplicitAutograd"},
  }};
  std::string prefix;  // Autograd / Quantized, which make a backend key another key
  std::optional<std::string> key;
  std::size_t start = 0;
  while (start <= macro.size()) {
    std::size_t end = macro.find('_', start);
    if (end == std::string_view::npos) end = macro.size();
    std::string word;
    for (char ch : macro.substr(start, end - start))
      word += static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    if (word == "AUTOGRAD") prefix = "Autograd";
    if (word == "QUANTIZED") prefix = "Quantized";
    for (const auto& [w, k] : k_words)
      if (word == w && !key) key = std::string(k);
    start = end + 1;
  }
  if (!prefix.empty()) return prefix + (key && *key != "CatchAll" ? *key : "");
  return key;
}

// `m.def(...)` / `m.impl(...)` on a torch::Library, resolved.
bool is_library_call(CXCursor c) {
  if (clang_getCursorKind(c) != CXCursor_CallExpr) return false;
  const CXCursor callee = callee_of(c);
  const std::string name = spelling(callee);
  return (name == "def" || name == "impl") && parent_name(callee) == "Library";
}

// Which parameters of a registering wrapper carry the op name and the kernel, and the key its
// body names (empty: the caller's block decides).
struct WrapperShape {
  int op_param = -1;
  int kernel_param = -1;
  std::string key;
};

// The position among `fn`'s parameters of the first one `expr` reads, -1 when it reads none.
int parameter_index(CXCursor fn, CXCursor expr) {
  std::vector<CXCursor> params;
  for (CXCursor c : children(fn))
    if (clang_getCursorKind(c) == CXCursor_ParmDecl) params.push_back(c);
  int found = -1;
  auto visit = [&](CXCursor c) {
    if (clang_getCursorKind(c) != CXCursor_DeclRefExpr) return false;
    const CXCursor ref = clang_getCursorReferenced(c);
    for (std::size_t i = 0; i < params.size(); ++i)
      if (clang_equalCursors(params[i], ref)) found = static_cast<int>(i);
    return found >= 0;
  };
  if (!visit(expr)) any_descendant(expr, visit);
  return found;
}

// The shape of a wrapper whose body calls `m.impl(name, ...)` / `m.def(name, ...)` (resolved or,
// in a template, dependent: an unresolved member call named impl/def) with its own parameters;
// nullopt when it calls none that way.
std::optional<WrapperShape> wrapper_shape(CXCursor fn) {
  std::optional<WrapperShape> shape;
  any_descendant(fn, [&](CXCursor c) {
    if (clang_getCursorKind(c) != CXCursor_CallExpr) return false;
    const std::vector<CXCursor> kids = children(c);
    if (kids.size() < 3 || clang_getCursorKind(kids[0]) != CXCursor_MemberRefExpr) return false;
    const std::string method = spelling(clang_getCursorReferenced(kids[0]));
    if (method != "impl" && method != "def") return false;
    WrapperShape found;
    found.op_param = parameter_index(fn, kids[1]);
    for (std::size_t i = 2; i < kids.size(); ++i) {
      if (const auto key = key_in(kids[i])) found.key = *key;
      if (const int index = parameter_index(fn, kids[i]); index >= 0) found.kernel_param = index;
    }
    if (found.op_param < 0 || found.kernel_param < 0) return false;
    shape = found;
    return true;
  });
  return shape;
}

class Collector {
 public:
  Collector(const MainFile& file, std::vector<model::SourceOp>& ops) : m_file(file), m_ops(ops) {}

  CppRegistrations release() { return std::move(m_found); }

  void collect_blocks(CXCursor parent, int depth) {
    if (depth > 32) return;
    for (CXCursor c : children(parent)) {
      const CXCursorKind kind = clang_getCursorKind(c);
      if (kind == CXCursor_Namespace || kind == CXCursor_LinkageSpec) {
        collect_blocks(c, depth + 1);
      } else if (kind == CXCursor_FunctionDecl && clang_isCursorDefinition(c)) {
        const Place p = m_file.start_of(c);
        if (!p.in_main) continue;
        if (const auto block = block_at(m_file.text(), p.offset))
          collect_registrations(c, *block, 0);
      }
    }
  }

 private:
  void collect_registrations(CXCursor c, const Block& block, int depth) {
    if (depth > k_max_ast_depth) return;
    for (CXCursor child : children(c)) {
      if (is_library_call(child)) {
        registration(child, spelling(callee_of(child)), block);
        continue;
      }
      if (unresolved_macro_registration(child, block)) continue;
      if (wrapper_registration(child, block)) continue;
      collect_registrations(child, block, depth + 1);
    }
  }

  // `DISPATCH_TO_META("op", fn);` whose definition is in a header that is not here: clang keeps
  // the call's arguments (recovery), and the macro's name says the dispatch key. A macro whose
  // header is present expands to m.impl(...) and is read as that.
  bool unresolved_macro_registration(CXCursor statement, const Block& block) {
    if (clang_isExpression(clang_getCursorKind(statement)) == 0) return false;
    if (clang_getCursorKind(statement) == CXCursor_CallExpr &&
        !clang_Cursor_isNull(callee_of(statement)))
      return false;
    // A macro that did expand (its header is here) holds the m.impl call, maybe under a cleanup
    // node: the walk below reads that call.
    if (any_descendant(statement, is_library_call)) return false;
    const Place where = m_file.start_of(statement);
    if (!where.in_main) return false;
    const std::string macro = identifier_call_at(m_file.text(), where.offset);
    if (macro.empty()) return false;
    const std::optional<std::string> op = string_argument(statement);
    const std::optional<CXCursor> fn = kernel_in(statement);
    if (!op || !fn) return false;
    std::optional<std::string> key = key_in_macro_name(macro);
    if (!key) {
      m_found.unresolved.push_back({macro, qualify(block.ns, *op), where.line});
      return true;
    }
    add_kernel(qualify(block.ns, *op), *key, fn, where.line);
    return true;
  }

  // `register_meta(m, "op", op_meta)`: a function of this file (a template too) whose body passes
  // its own parameters on to `m.impl(name, torch::dispatch(Key, fn))`. The op and the kernel come
  // from the call's arguments at those positions; the key from the wrapper's body, else the block.
  bool wrapper_registration(CXCursor call, const Block& block) {
    if (clang_getCursorKind(call) != CXCursor_CallExpr) return false;
    const CXCursor callee = callee_of(call);
    if (clang_getCursorKind(callee) != CXCursor_FunctionDecl) return false;
    const CXCursor def = clang_getCursorDefinition(callee);
    if (clang_Cursor_isNull(def) || !m_file.start_of(def).in_main) return false;
    const std::optional<WrapperShape> shape = wrapper_shape(def);
    if (!shape) return false;
    const int n = clang_Cursor_getNumArguments(call);
    if (shape->op_param >= n || shape->kernel_param >= n) return false;
    const auto op = string_argument(clang_Cursor_getArgument(call, shape->op_param));
    const auto fn = kernel_in(clang_Cursor_getArgument(call, shape->kernel_param));
    if (!op || !fn) return false;
    add_kernel(qualify(block.ns, *op), shape->key.empty() ? block_key(block) : shape->key, fn,
               m_file.start_of(call).line);
    return true;
  }

  void registration(CXCursor call, const std::string& method, const Block& block) {
    const int n = clang_Cursor_getNumArguments(call);
    if (n < 1) return;
    const Place where = m_file.start_of(call);
    const auto first = string_argument(clang_Cursor_getArgument(call, 0));
    if (!first) return;
    std::string op_name;
    if (method == "def") {
      const ParsedSchema schema = parse_schema(*first);
      op_name = qualify(block.ns, schema.name);
      if (first->find('(') != std::string::npos) {
        m_ops.push_back({op_name, *first, schema.args, where.line, ""});
        m_found.schema_literals.push_back(
            {m_ops.size() - 1, clang_Cursor_getArgument(call, 0), schema});
      }
      if (n < 2) return;
    } else {
      op_name = qualify(block.ns, *first);
    }
    // Dispatch key: explicit (m.impl("op", torch::kMeta, fn), torch::dispatch(Key, fn)), else the
    // block's.
    std::string key = block_key(block);
    std::optional<CXCursor> fn;
    for (int i = 1; i < n; ++i) {
      const CXCursor arg = clang_Cursor_getArgument(call, static_cast<unsigned>(i));
      if (const auto k = key_in(arg)) key = *k;
      if (const auto f = kernel_in(arg)) fn = f;
    }
    add_kernel(op_name, key, fn, where.line);
  }

  // The key of a registration that names none: the block's; in TORCH_LIBRARY (no key) a
  // catch-all.
  static std::string block_key(const Block& block) {
    return block.key.empty() ? "CompositeImplicitAutograd" : block.key;
  }

  // Every registration form ends here: a catch-all kernel registers as CompositeImplicitAutograd,
  // and a lambda has no name of its own.
  void add_kernel(std::string op, std::string key, std::optional<CXCursor> fn, int line) {
    if (key == "CatchAll") key = "CompositeImplicitAutograd";
    KernelRef ref{std::move(op), std::move(key), fn ? *fn : clang_getNullCursor(), "", line};
    if (fn) ref.name = clang_getCursorKind(*fn) == CXCursor_LambdaExpr ? "<lambda>" : spelling(*fn);
    m_found.kernels.push_back(std::move(ref));
  }

  const MainFile& m_file;
  std::vector<model::SourceOp>& m_ops;
  CppRegistrations m_found;
};

// The C++ string literals that start at `at` (after spaces), joined: `"a(Tensor x, "\n "int n) ->
// Tensor"`; nullopt when no literal starts there, or one is a raw or prefixed literal.
std::optional<std::string> literals_at(std::string_view text, std::size_t at) {
  std::string joined;
  bool any = false;
  while (true) {
    while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
    if (at >= text.size() || text[at] != '"') break;
    std::size_t end = at + 1;
    while (end < text.size() && text[end] != '"' && text[end] != '\n')
      end += text[end] == '\\' ? 2 : 1;
    if (end >= text.size() || text[end] != '"') return std::nullopt;
    joined += unquote(text.substr(at, end + 1 - at));
    any = true;
    at = end + 1;
  }
  if (!any) return std::nullopt;
  return joined;
}

// The schemas `m.def("...")` states in each TORCH_LIBRARY / TORCH_LIBRARY_FRAGMENT block of the
// text, read from the text: clang drops a call with an argument it cannot resolve (FBGEMM's
// `m.def("op(...) -> Tensor", {PT2_COMPLIANT_TAG})` when the tag's header is missing), and the
// schema, a plain literal, does not need it. Ops already read from the AST are kept as they are.
// The innermost preprocessor branch open at `offset`: its opening directive (`#ifdef USE_ROCM`),
// prefixed with `#else of ` / `#elif ... of ` when the offset is in a later branch of it; "" at
// the top level.
std::string condition_at(std::string_view text, std::size_t offset) {
  struct Branch {
    std::string opening;  // `#ifdef USE_ROCM`
    std::string current;  // the opening, or `#else of #ifdef USE_ROCM`
  };
  std::vector<Branch> open;
  for (std::size_t at = 0; at < offset && at < text.size();) {
    auto end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    const auto line = util::trim(text.substr(at, end - at));
    at = end + 1;
    if (!line.starts_with("#")) continue;
    const std::string directive = "#" + std::string(util::trim(line.substr(1)));
    if (directive.starts_with("#if")) {
      open.push_back({directive, directive});
    } else if (directive.starts_with("#el") && !open.empty()) {
      const std::string keyword = directive.starts_with("#elif") ? directive : "#else";
      open.back().current = keyword + " of " + open.back().opening;
    } else if (directive.starts_with("#endif") && !open.empty()) {
      open.pop_back();
    }
  }
  return open.empty() ? "" : util::clean_text(open.back().current, 200);
}

void add_text_schemas(std::string_view text, std::vector<model::SourceOp>& ops) {
  {
    for (auto found = text.find("TORCH_LIBRARY"); found != std::string_view::npos;
         found = text.find("TORCH_LIBRARY", found + 1)) {
      // The macro's whole name (STABLE_TORCH_LIBRARY_EXPAND), used, not #defined.
      std::size_t at = found;
      while (at > 0 && util::is_identifier_char(text[at - 1])) --at;
      const auto line = text.rfind('\n', at);
      const auto line_start = line == std::string_view::npos ? 0 : line + 1;
      if (util::trim(text.substr(line_start, at - line_start)).starts_with("#")) continue;
      const auto block = block_at(text, static_cast<unsigned>(at));
      if (!block || !block->key.empty()) continue;  // an IMPL block defines no schema
      // `MACRO(ns, m) {`: the body's brace right after the arguments, which may hold parentheses
      // of their own (`CONCAT(TORCH_EXTENSION_NAME, _cache_ops)`).
      auto args_end = text.find('(', at);
      for (int depth = 0; args_end < text.size(); ++args_end) {
        if (text[args_end] == '(') ++depth;
        if (text[args_end] == ')' && --depth == 0) break;
      }
      if (args_end >= text.size()) args_end = std::string_view::npos;
      const auto open = args_end == std::string_view::npos ? args_end : text.find('{', args_end);
      if (open == std::string_view::npos ||
          !util::trim(text.substr(args_end + 1, open - args_end - 1)).empty())
        continue;
      // The block's body, to its matching brace (strings and comments are rare enough inside a
      // registration block's braces not to be parsed here).
      std::size_t close = open;
      for (int depth = 0; close < text.size(); ++close) {
        if (text[close] == '{') ++depth;
        if (text[close] == '}' && --depth == 0) break;
      }
      const auto body = text.substr(open, close - open);
      for (auto def = body.find(".def("); def != std::string_view::npos;
           def = body.find(".def(", def + 1)) {
        const auto schema = literals_at(body, def + 5);
        if (!schema || schema->find('(') == std::string::npos) continue;
        const ParsedSchema parsed = parse_schema(*schema);
        const std::string name = qualify(block->ns, parsed.name);
        if (parsed.name.empty() ||
            std::any_of(ops.begin(), ops.end(),
                        [&](const model::SourceOp& op) { return op.name == name; }))
          continue;
        const auto offset = open + def;
        const int line = 1 + static_cast<int>(std::count(
                                 text.begin(), text.begin() + static_cast<long>(offset), '\n'));
        // Read here, not in the AST: a branch the parse did not take is named as written.
        ops.push_back({name, *schema, parsed.args, line, condition_at(text, offset)});
      }
    }
  }
}

}  // namespace

CppRegistrations collect_cpp_registrations(CXTranslationUnit tu, const MainFile& file,
                                           std::vector<model::SourceOp>& ops) {
  Collector collector(file, ops);
  collector.collect_blocks(clang_getTranslationUnitCursor(tu), 0);
  add_text_schemas(file.text(), ops);
  return collector.release();
}

}  // namespace aoti::parsers::source
