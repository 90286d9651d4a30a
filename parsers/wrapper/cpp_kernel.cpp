#include "parsers/wrapper/cpp_kernel.hpp"

#include <algorithm>
#include <optional>

#include "parsers/wrapper/cxx_scan.hpp"
#include "torch/index_assert.hpp"
#include "util/text.hpp"

namespace aoti::parsers::wrapper {

namespace {

constexpr std::string_view k_extern_c = "extern \"C\"";
// A kernel's text is bounded: lambdas of a few lines, never megabytes.
constexpr std::size_t k_max_value = 8192;
constexpr std::size_t k_max_signature = 65536;

// The kernel's name in `extern "C"  void  NAME(`; empty when the line opens no kernel.
std::string_view declared_name(std::string_view line) {
  if (!line.starts_with(k_extern_c)) return {};
  std::string_view rest = util::trim(line.substr(k_extern_c.size()));
  if (!rest.starts_with("void") || rest.size() < 5 || (rest[4] != ' ' && rest[4] != '\t'))
    return {};
  rest = util::trim(rest.substr(4));
  const std::string_view name = util::leading_identifier(rest);
  if (name.empty() || name.size() >= rest.size() || rest[name.size()] != '(') return {};
  // Inductor names them `cpp_fused_...` (`kernel` in torch.compile's own C++ modules).
  if (!name.starts_with("cpp_") && name != "kernel") return {};
  return name;
}

// Braces in the text outside string literals: +1 for each `{`, -1 for each `}`.
long brace_balance(std::string_view text) {
  long balance = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\') ++i;
    } else if (c == '{') {
      ++balance;
    } else if (c == '}') {
      --balance;
    }
  }
  return balance;
}

// The end of the address expression that starts at `begin`: the first `,` or unmatched `)` / `]` /
// `;`.
std::size_t expression_end(std::string_view text, std::size_t begin) {
  std::size_t depth = 0;
  for (std::size_t i = begin; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      if (depth == 0) return i;
      --depth;
    } else if ((c == ',' || c == ';') && depth == 0) {
      return i;
    }
  }
  return text.size();
}

}  // namespace

bool CppKernelReader::opens_kernel(std::string_view line) { return !declared_name(line).empty(); }

CppKernelReader::CppKernelReader(std::string_view line, int number) {
  m_kernel.name = std::string(declared_name(line));
  m_kernel.language = model::KernelLanguage::cpp;
  m_kernel.line = number;
  m_kernel.source_begin = number;
  read_signature_text(line.substr(line.find('(') + 1), number);
}

void CppKernelReader::read_signature_text(std::string_view text, int number) {
  // The parameter list closes at the first `)`: C++ kernel parameters hold no parentheses.
  const std::size_t close = text.find(')');
  if (m_signature.size() < k_max_signature) m_signature.append(text.substr(0, close));
  if (close == std::string_view::npos) {
    m_signature.push_back(' ');
    return;
  }
  m_in_signature = false;
  if (const auto items = split_top_level(m_signature)) {
    for (const auto item : *items) {
      // `const int64_t* in_ptr0`: the name is the last identifier, the type what precedes it.
      std::size_t end = item.size();
      std::size_t begin = end;
      while (begin > 0 && util::is_identifier_char(item[begin - 1])) --begin;
      if (begin == end) continue;
      const std::string name(item.substr(begin, end - begin));
      m_kernel.params.push_back(name);
      m_kernel.signature[name] = std::string(util::trim(item.substr(0, begin)));
    }
  }
  const std::string_view after = util::trim(text.substr(close + 1));
  if (after.starts_with(";")) {
    m_done = true;
  } else if (after.starts_with("{")) {
    m_body_seen = true;
    m_depth = brace_balance(after);
    if (m_depth <= 0) m_done = true;
  }
  (void)number;
}

bool CppKernelReader::read_line(std::string_view line, int number) {
  if (m_done) return false;
  if (m_in_signature) {
    read_signature_text(line, number);
    return !m_done;
  }
  if (!m_body_seen) {
    // Between the `)` and the body: `{` opens it, `;` makes this a declaration.
    if (line.empty()) return true;
    if (line.starts_with(";")) return false;
    if (!line.starts_with("{")) return false;
    m_body_seen = true;
    m_depth = brace_balance(line);
    return m_depth > 0;
  }
  const long balance = brace_balance(line);
  // Each block opened in the function's own block is a loop nest with its own tmp numbering.
  if (m_depth == 1 && balance > 0) ++m_scope;
  read_body_line(line, number);
  m_depth += balance;
  return m_depth > 0;
}

void CppKernelReader::read_body_line(std::string_view line, int number) {
  for (const std::string_view check : {"AOTI_TORCH_CHECK(", "TORCH_CHECK("}) {
    if (line.starts_with(check)) {
      read_check(line, number, check.size() - 1);
      return;
    }
  }

  // A multi-line value (`auto tmp9 =` then a lambda, closed by a line `;`).
  if (!m_open_var.empty()) {
    if (line == ";") {
      m_kernel.assignments[model::scoped_name(m_open_var, m_scope)] = std::move(m_open_value);
      m_open_var.clear();
      m_open_value.clear();
      return;
    }
    if (m_open_value.size() < k_max_value) {
      if (!m_open_value.empty()) m_open_value.push_back(' ');
      m_open_value.append(line.substr(0, k_max_value));
    }
    read_accesses(line, number, m_open_var);
    return;
  }

  std::string var;
  if (line.starts_with("auto ")) {
    const std::string_view rest = util::trim(line.substr(5));
    const std::string_view name = util::leading_identifier(rest);
    const std::string_view after = util::trim(rest.substr(name.size()));
    if (!name.empty() && after.starts_with("=") && !after.starts_with("==")) {
      std::string_view value = util::trim(after.substr(1));
      var = std::string(name);
      if (value.empty()) {
        m_open_var = var;
        return;
      }
      if (value.ends_with(';')) value.remove_suffix(1);
      m_kernel.assignments[model::scoped_name(var, m_scope)] =
          std::string(util::trim(value).substr(0, k_max_value));
    }
  }
  read_accesses(line, number, var);
}

// `AOTI_TORCH_CHECK((0 <= tmp7) & (tmp7 < 1000L), "index out of bounds: 0 <= tmp7 < 1000L");`
void CppKernelReader::read_check(std::string_view line, int number, std::size_t open) {
  const auto items = top_level_items(line, open, 2);
  if (!items) return;
  const auto message = unquote(items->back());
  if (!message) return;
  model::TritonAssert assertion;
  assertion.message = *message;
  assertion.condition = std::string((*items)[0]);
  assertion.line = number;
  assertion.text = std::string(line);
  assertion.scope = m_scope;
  if (const auto form = torch::parse_index_assert(*message);
      form && message->starts_with(torch::k_index_assert_prefix)) {
    assertion.index_var = form->index_var;
    assertion.bound = form->upper;
  }
  m_kernel.asserts.push_back(std::move(assertion));
}

// Every address built from a pointer parameter: `in_ptr1[x]`, `in_ptr1 + x`, `f(out_ptr0, x, ...)`.
void CppKernelReader::read_accesses(std::string_view line, int number, const std::string& var) {
  for (const auto& param : m_kernel.params) {
    const auto type = m_kernel.signature.find(param);
    if (type == m_kernel.signature.end() || type->second.find('*') == std::string::npos) continue;
    for (std::size_t at = line.find(param); at != std::string_view::npos;
         at = line.find(param, at + 1)) {
      const std::size_t end = at + param.size();
      if ((at > 0 && util::is_identifier_char(line[at - 1])) ||
          (end < line.size() && util::is_identifier_char(line[end])))
        continue;
      const std::string_view after = line.substr(end);
      std::string_view offset;
      if (after.starts_with("[")) {
        const auto inside = bracket_contents(line, end);
        if (!inside) continue;
        offset = *inside;
      } else if (after.starts_with(" + ") || after.starts_with(", ")) {
        const std::size_t begin = end + 2;
        offset = util::trim(line.substr(begin, expression_end(line, begin) - begin));
      } else {
        continue;
      }
      model::TritonLoad access;
      access.var = var;
      access.pointer = param;
      access.offset = std::string(strip_outer_parens(offset));
      access.line = number;
      access.is_store = var.empty();
      access.text = std::string(line);
      access.scope = m_scope;
      m_kernel.loads.push_back(std::move(access));
    }
  }
}

model::TritonKernel CppKernelReader::finish(int last_line) {
  m_kernel.source_end = last_line;
  return std::move(m_kernel);
}

std::vector<model::TritonKernel> read_cpp_kernels(std::string_view text,
                                                  const model::Location& where) {
  std::vector<model::TritonKernel> kernels;
  std::optional<CppKernelReader> reader;
  int number = 0;
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = util::trim(text.substr(begin, end - begin));
    ++number;
    begin = end + 1;
    if (reader) {
      if (reader->read_line(line, number)) continue;
      if (reader->defined()) kernels.push_back(reader->finish(number));
      reader.reset();
      continue;
    }
    if (CppKernelReader::opens_kernel(line)) {
      reader.emplace(line, number);
      if (reader->finished()) {  // a one-line declaration or definition
        if (reader->defined()) kernels.push_back(reader->finish(number));
        reader.reset();
      }
    }
  }
  if (reader && reader->defined()) kernels.push_back(reader->finish(number));
  for (auto& kernel : kernels) kernel.source = where;
  return kernels;
}

void add_kernel_source(model::WrapperFacts& wrapper, std::string_view text,
                       const model::Location& where, int line_offset) {
  for (auto& kernel : read_cpp_kernels(text, where)) {
    if (line_offset != 0) {
      for (int* line : {&kernel.line, &kernel.source_begin, &kernel.source_end})
        *line += line_offset;
      for (auto& assertion : kernel.asserts) assertion.line += line_offset;
      for (auto& access : kernel.loads) access.line += line_offset;
    }
    const auto known = std::find_if(
        wrapper.kernels.begin(), wrapper.kernels.end(), [&](const model::TritonKernel& k) {
          return k.language == model::KernelLanguage::cpp && k.name == kernel.name;
        });
    if (known != wrapper.kernels.end())
      *known = std::move(kernel);
    else
      wrapper.kernels.push_back(std::move(kernel));
  }
}

}  // namespace aoti::parsers::wrapper
