#include "parsers/wrapper/triton_source.hpp"

#include <optional>

#include "parsers/wrapper/cxx_scan.hpp"
#include "torch/index_assert.hpp"
#include "util/text.hpp"

namespace aoti::parsers::wrapper {

namespace {

constexpr std::string_view k_opening = "async_compile.triton(";

std::optional<std::string_view> opened_kernel_name(std::string_view line) {
  const std::size_t at = line.find(k_opening);
  if (at == std::string_view::npos) return std::nullopt;
  const std::string_view rest = util::trim(line.substr(at + k_opening.size()));
  if (rest.empty() || (rest[0] != '\'' && rest[0] != '"')) return std::nullopt;
  const std::size_t end = rest.find(rest[0], 1);
  if (end == std::string_view::npos) return std::nullopt;
  const std::string_view name = rest.substr(1, end - 1);
  if (name.empty() || util::leading_identifier(name).size() != name.size()) return std::nullopt;
  return name;
}

// The first `+` outside brackets: `in_ptr0 + (x1 + 32*tmp4)` splits into pointer and offset.
// `value  # comment` -> `value`: user Triton kernels carry comments; a `#` in a string is kept.
std::string_view without_comment(std::string_view text) {
  char quote = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (quote) {
      if (text[i] == '\\')
        ++i;
      else if (text[i] == quote)
        quote = 0;
    } else if (text[i] == '\'' || text[i] == '"') {
      quote = text[i];
    } else if (text[i] == '#') {
      return util::trim(text.substr(0, i));
    }
  }
  return text;
}

std::size_t find_top_level_plus(std::string_view text) {
  std::size_t depth = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '(' || c == '[' || c == '{')
      ++depth;
    else if ((c == ')' || c == ']' || c == '}') && depth > 0)
      --depth;
    else if (c == '+' && depth == 0)
      return i;
  }
  return std::string_view::npos;
}

// `index out of bounds: 0 <= tmp4 < ks0` -> ("tmp4", "ks0"); every form core/index_assert.hpp
// reads.
void read_index_bound(model::TritonAssert& assertion) {
  if (!assertion.message.starts_with(torch::k_index_assert_prefix)) return;
  const auto form = torch::parse_index_assert(assertion.message);
  if (!form) return;
  assertion.index_var = form->index_var;
  assertion.bound = form->upper;
}

// `ptr + (offset)` -> the access; the pointer alone when there is no offset.
model::TritonLoad access_of(std::string_view address, int number, std::string_view line) {
  model::TritonLoad access;
  access.line = number;
  access.text = std::string(line);
  const std::size_t plus = find_top_level_plus(address);
  if (plus == std::string_view::npos) {
    access.pointer = std::string(util::trim(address));
  } else {
    access.pointer = std::string(util::trim(address.substr(0, plus)));
    access.offset = std::string(strip_outer_parens(address.substr(plus + 1)));
  }
  return access;
}

}  // namespace

bool TritonSourceReader::opens_source(std::string_view opening) {
  return opened_kernel_name(opening).has_value();
}

TritonSourceReader::TritonSourceReader(std::string_view opening, int line) {
  m_kernel.name = std::string(opened_kernel_name(opening).value_or(""));
  m_kernel.source_begin = line;
  m_closing = opening.find("\"\"\"") != std::string_view::npos ? "\"\"\"" : "'''";
}

bool TritonSourceReader::read_line(std::string_view line, int number) {
  if (line.find(m_closing) != std::string_view::npos) return false;
  if (m_in_body) {
    read_body_line(line, number);
  } else if (line.starts_with("def ")) {
    read_def(line, number);
  } else if (line.find("'signature'") != std::string_view::npos) {
    read_signature(line);
  }
  if (!m_in_body && line.find("inductor_meta=") != std::string_view::npos) {
    m_kernel.inductor_meta_line = number;
    constexpr std::string_view k_name = "'kernel_name': '";
    if (const std::size_t at = line.find(k_name); at != std::string_view::npos) {
      const std::string_view rest = line.substr(at + k_name.size());
      const std::string_view launched = rest.substr(0, rest.find('\''));
      if (launched != m_kernel.name && launched.size() < rest.size())
        m_kernel.launch_name = std::string(launched);
    }
    constexpr std::string_view k_key = "'assert_indirect_indexing': ";
    if (const std::size_t at = line.find(k_key); at != std::string_view::npos) {
      const std::string_view value = line.substr(at + k_key.size());
      if (value.starts_with("False")) m_kernel.assert_indirect_indexing = false;
      if (value.starts_with("True")) m_kernel.assert_indirect_indexing = true;
    }
  }
  return true;
}

void TritonSourceReader::read_signature(std::string_view line) {
  const std::size_t key = line.find("'signature'");
  const std::size_t open = line.find('{', key);
  if (open == std::string_view::npos) return;
  const auto items = top_level_items(line, open);
  if (!items) return;
  for (const auto item : *items) {
    const std::size_t colon = item.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string_view raw_key = util::trim(item.substr(0, colon));
    const auto type = unquote(item.substr(colon + 1));
    if (!type) continue;
    const auto quoted_key = unquote(raw_key);
    m_raw_signature.emplace_back(quoted_key ? *quoted_key : std::string(raw_key), *type);
  }
}

void TritonSourceReader::read_def(std::string_view line, int number) {
  const std::size_t open = line.find('(');
  if (open == std::string_view::npos) return;
  const auto items = top_level_items(line, open);
  if (!items) return;
  m_kernel.line = number;
  m_in_body = true;
  for (const auto item : *items) {
    const std::string_view name = util::leading_identifier(item);
    if (name.empty()) continue;
    m_all_params.emplace_back(name);
    if (item.find("constexpr") == std::string_view::npos) m_kernel.params.emplace_back(name);
  }
}

void TritonSourceReader::read_body_line(std::string_view line, int number) {
  constexpr std::string_view k_assert = "tl.device_assert(";
  if (line.starts_with(k_assert)) {
    const auto items = top_level_items(line, k_assert.size() - 1, 2);
    if (!items) return;
    const auto message = unquote((*items)[1]);
    if (!message) return;
    model::TritonAssert assertion;
    assertion.message = *message;
    assertion.condition = std::string((*items)[0]);
    assertion.line = number;
    assertion.text = std::string(line);
    read_index_bound(assertion);
    m_kernel.asserts.push_back(std::move(assertion));
    return;
  }
  // Stores address memory too: `tl.store(out_ptr0 + (x0), tmp1, xmask)`, `tl.atomic_add(...)`.
  for (const std::string_view store : {"tl.store(", "tl.atomic_add("}) {
    if (!line.starts_with(store)) continue;
    const auto args = top_level_items(line, store.size() - 1, 1);
    if (!args) return;
    model::TritonLoad access = access_of((*args)[0], number, line);
    access.is_store = true;
    m_kernel.loads.push_back(std::move(access));
    return;
  }

  const std::string_view var = util::leading_identifier(line);
  if (var.empty()) return;
  const std::string_view rest = util::trim(line.substr(var.size()));
  if (rest.empty() || rest[0] != '=' || (rest.size() > 1 && rest[1] == '=')) return;
  const std::string_view value = without_comment(util::trim(rest.substr(1)));
  m_kernel.assignments[std::string(var)] = std::string(value);

  if (var.ends_with("numel")) {
    if (const auto numel = util::parse_int(value))
      m_kernel.constant_numels[std::string(var)] = *numel;
  }

  constexpr std::string_view k_load = "tl.load(";
  if (value.starts_with(k_load)) {
    const auto args = top_level_items(value, k_load.size() - 1, 1);
    if (!args) return;
    model::TritonLoad load = access_of((*args)[0], number, line);
    load.var = std::string(var);
    m_kernel.loads.push_back(std::move(load));
  }
}

model::TritonKernel TritonSourceReader::finish(int last_line) {
  m_kernel.source_end = last_line;
  for (auto& [key, type] : m_raw_signature) {
    const auto position = util::parse_index(key);
    const bool by_position = position && static_cast<std::size_t>(*position) < m_all_params.size();
    m_kernel.signature[by_position ? m_all_params[*position] : key] = type;
  }
  return std::move(m_kernel);
}

}  // namespace aoti::parsers::wrapper
