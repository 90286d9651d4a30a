// Recognizers of torch.export's messages: deprecated APIs, shapes export specialized,
// data-dependent guards and draft_export's report.
#include "parsers/logs/scanner.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "util/text.hpp"
#include "util/utf8.hpp"

namespace aoti::parsers::logs {

// torch._export.aot_compile / aot_load, called or in a traceback frame.
void Scanner::deprecated_api(std::uint64_t found) {
  // One anchor flag for both names (the lines are rare): which one the line holds.
  if (found & a_aot_api) {
    if (m_line.find("torch._export.aot_compile") != std::string_view::npos)
      deprecated("torch._export.aot_compile");
    if (m_line.find("torch._export.aot_load") != std::string_view::npos)
      deprecated("torch._export.aot_load");
  }
  if (found & a_export_frame) deprecated_frame();
}

void Scanner::deprecated(std::string_view api) {
  auto e = event(LogEventKind::deprecated_api);
  e.subject = std::string(api);
  add(std::move(e), api);
}

// A traceback frame inside the deprecated functions, even when the caller's code line is not shown.
void Scanner::deprecated_frame() {
  if (m_line.ends_with(", in aot_compile")) deprecated("torch._export.aot_compile");
  if (m_line.ends_with(", in aot_load")) deprecated("torch._export.aot_load");
}

namespace {

// The two sides of a sympy `Eq(lhs, rhs)`, split at its top-level comma (sides have parentheses
// and commas of their own: `Eq(Mod(s21*s5*s89, 2560), 0)`); {"", ""} for any other text.
std::pair<std::string_view, std::string_view> eq_sides(std::string_view guard) {
  if (!guard.starts_with("Eq(") || !guard.ends_with(')')) return {};
  const auto inside = guard.substr(3, guard.size() - 4);
  int depth = 0;
  for (std::size_t i = 0; i < inside.size(); ++i) {
    const char c = inside[i];
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (c == ',' && depth == 0)
      return {util::trim(inside.substr(0, i)), util::trim(inside.substr(i + 1))};
  }
  return {};
}

// A symbol of its own (`s0`, `batch`), not an expression of several.
bool is_symbol(std::string_view text) {
  return !text.empty() && !util::is_digit(text[0]) &&
         std::all_of(text.begin(), text.end(), util::is_identifier_char);
}

}  // namespace

// Export's messages about one symbol come on several lines; they merge into one event per symbol.
LogEvent* Scanner::specialized(std::string_view symbol) {
  const auto name = util::clean_text(symbol, k_max_field);
  if (auto it = m_specialized.find(name); it != m_specialized.end()) return &m_events[it->second];
  auto e = event(LogEventKind::export_specialized);
  e.subject = name;
  LogEvent* added = add(std::move(e), name);
  if (added) m_specialized.emplace(name, static_cast<std::size_t>(added - m_events.data()));
  return added;
}

void Scanner::set_constant(LogEvent* e, std::string_view value) {
  if (!e || value.empty()) return;
  e->value = util::clean_text(value, k_max_field);
  e->problem = "specialized to a constant";
  if (m_number != e->where.line) {
    e->value_line = m_number;
    e->value_text = line_text(m_raw);
  }
}

// Constraints violated (batch, seq)! For more information, run with TORCH_LOGS="+dynamic".
// Unnamed dims are listed by their source, which has parentheses of its own (`Constraints violated
// (L['input_ids'].size()[0])!`): the list ends at the parenthesis that closes it, and commas inside
// a source's brackets do not split it.
void Scanner::constraints_violated(std::uint64_t) {
  constexpr std::string_view k_open = "Constraints violated (";
  const auto start = m_line.find(k_open) + k_open.size();
  int depth = 0;
  std::size_t begin = start;
  for (std::size_t i = start; i < m_line.size(); ++i) {
    const char c = m_line[i];
    if (c == '(' || c == '[') ++depth;
    if ((c == ')' || c == ']') && depth > 0) {
      --depth;
      continue;
    }
    if ((c == ',' && depth == 0) || (c == ')' && depth == 0)) {
      if (const auto symbol = util::trim(m_line.substr(begin, i - begin)); !symbol.empty())
        specialized(symbol);
      begin = i + 1;
      if (c == ')') return;
    }
  }
}

// You marked batch as dynamic but your code specialized it to be a constant (8).
void Scanner::marked_dynamic(std::uint64_t) {
  const auto symbol = util::between(m_line, "You marked ", " as dynamic");
  if (symbol.empty()) return;
  auto* e = specialized(symbol);
  set_constant(e, util::digits_at(util::after(m_line, "specialized it to be a constant ("), 0));
}

// Not all values of batch = L['x'].size()[0] in the specified range ... are valid because batch
// was inferred to be a constant (8).   /   ... satisfy the generated guard Ne(...).
// An unnamed dim (Dim.AUTO, a mark_dynamic'd size) is named by its constraint:
// `Not all values of RelaxedUnspecConstraint(L['input_ids'].size()[0]) are valid because
// L['input_ids'].size()[0] was inferred to be a constant (2048).`
void Scanner::not_all_values(std::uint64_t) {
  auto symbol = util::between(m_line, "Not all values of ", " = ");
  if (symbol.empty() || symbol.find(" are valid because ") != std::string_view::npos) {
    symbol = util::between(m_line, "Not all values of ", " are valid because ");
    if (const auto open = symbol.find('('); open != std::string_view::npos &&
                                            symbol.ends_with(')') &&
                                            symbol.substr(0, open).ends_with("Constraint"))
      symbol = symbol.substr(open + 1, symbol.size() - open - 2);
  }
  if (symbol.empty()) return;
  auto* e = specialized(symbol);
  if (!e) return;
  if (const auto constant = util::digits_at(util::after(m_line, "inferred to be a constant ("), 0);
      !constant.empty()) {
    set_constant(e, constant);
  } else if (auto guard = util::trim(util::after(m_line, "satisfy the generated guard "));
             !guard.empty()) {
    if (guard.ends_with('.')) guard.remove_suffix(1);
    if (e->problem.empty())
      e->problem = util::clean_text(fmt::format("violates the guard {}", guard), k_max_field);
  }
}

void Scanner::start_suggested_fixes(std::uint64_t) { m_in_suggested_fixes = true; }

// Suggested fixes:
//   batch = 8
void Scanner::continue_suggested_fixes() {
  if (m_line.empty() || (m_line[0] != ' ' && m_line[0] != '\t')) {
    if (m_line.find("Suggested fixes:") == std::string_view::npos) m_in_suggested_fixes = false;
    return;
  }
  const auto line = util::trim(m_line);
  const auto eq = line.find(" = ");
  if (eq == std::string_view::npos) return;
  const auto value = line.substr(eq + 3);
  if (value.empty() || util::digits_at(value, 0).size() != value.size()) return;
  set_constant(specialized(line.substr(0, eq)), value);
}

// GuardOnDataDependentSymNode: Could not guard on data-dependent expression Eq(u2, -1) ...
// printed outside a traceback (a logger, a summary); inside one the exception line reports it.
void Scanner::data_dependent(std::uint64_t) {
  if (m_exception_line || m_saw_data_dependent) return;
  // `GuardOnDataDependentSymNode: Could not guard ...` alone on its line is an exception line: read
  // as one (bare_exception), it keeps the message's further lines and frames.
  if (!m_in_traceback && m_detail_event < 0 && !exception_type_at_start(util::trim(m_line)).empty())
    return;
  auto e = event(LogEventKind::python_exception);
  const auto at = m_line.find("GuardOnDataDependentSymNode");
  e.subject =
      at != std::string_view::npos ? "GuardOnDataDependentSymNode" : "data-dependent expression";
  e.problem = "data-dependent guard";
  auto message = m_line.find("Could not ");
  e.value = util::clean_text(
      util::trim(m_line.substr(message == std::string_view::npos ? 0 : message)), k_max_field);
  m_saw_data_dependent = true;
  const auto key = e.subject + "|" + e.value;
  add(std::move(e), key);
}

// `When exporting, we were unable to evaluate the value of `Eq(u0, 1)`.` (a data-dependent error)
// and `torch.ops.ns.op.default is missing a fake kernel implementation.`; the report's
// `File <path>, lineno <n>, in <f>` lines after them are their user stack.
void Scanner::draft_export_failure(std::uint64_t found) {
  const auto line = util::trim(m_line);
  // `Guard Added.` ... `Specifically, this guard was added: Eq(s0, 8), where {s0: [...]}.`: a
  // guard that fixes a dim to a value is that dim specialized; any other guard on the inputs' dims
  // (`Eq(Mod(s21*s5*s89, 2560), 0)`: a product of dims a multiple of a constant) ties them, and is
  // kept with its sources and the user frame under it.
  if (const auto at = line.find("Specifically, this guard was added: ");
      at != std::string_view::npos) {
    const auto text = line.substr(at + 36);
    const auto where = text.find(", where {");
    const auto guard = util::trim(text.substr(0, where));
    // The symbols' sources, as the report names them: `where {'s5': "L['x'].size()[0]", ...}` (or
    // `{s0: ["L['x'].size()[0]"]}`): the first one.
    const auto sources = where == std::string_view::npos ? std::string_view() : text.substr(where);
    const auto [symbol, value] = eq_sides(guard);
    const bool constant =
        !value.empty() && util::digits_at(value, value.starts_with('-') ? 1 : 0).size() ==
                              value.size() - (value.starts_with('-') ? 1 : 0);
    if (constant && is_symbol(symbol)) {
      const auto source = util::between(sources, "[\"", "\"]");
      set_constant(specialized(source.empty() ? symbol : source), value);
      return;
    }
    // A bound (`s0 <= 1024`) only narrows the range; an equation or a divisibility excludes sizes
    // inside it.
    if (!guard.starts_with("Eq(") && guard.find("Mod(") == std::string_view::npos) return;
    auto e = event(LogEventKind::export_specialized);
    e.problem = "guard added";
    e.subject = util::clean_text(guard, k_max_field);
    e.value = util::clean_text(sources, k_max_field);
    const LogEvent* added = add(std::move(e), "guard|" + std::string(guard));
    m_draft_event = appended(added) ? index_of(added) : -1;
    return;
  }
  auto e = event(LogEventKind::python_exception);
  e.subject = "draft_export";
  if (found & a_draft_data_dependent) {
    e.problem = "data-dependent guard";
    e.value = util::clean_text(util::between(m_line, "unable to evaluate the value of `", "`"),
                               k_max_field);
  } else if (line.find(" has a fake kernel implementation, but it has incorrect behavior") !=
             std::string_view::npos) {
    // `Mismatched fake kernel.` `torch.ops.ns.op.default has a fake kernel implementation, but
    // it has incorrect behavior, based on the real kernel. The reason for the mismatch is: ...`
    e.problem = "fake mismatch";
    e.value = util::clean_text(util::first_word(line), k_max_field);
  } else {
    e.problem = "missing fake";
    e.value = util::clean_text(util::first_word(line), k_max_field);
  }
  const auto key = e.problem + "|" + e.value;
  const LogEvent* added = add(std::move(e), key);
  m_draft_event = appended(added) ? index_of(added) : -1;
}

// The lines after a draft_export report item: its frames, then the code under the last one.
void Scanner::draft_export_continuation(std::uint64_t found) {
  if (m_draft_event < 0) return;
  // A mismatched fake kernel's reason, on the line under it.
  if (auto& e = m_events[static_cast<std::size_t>(m_draft_event)];
      e.problem == "fake mismatch" && m_number == e.where.line + 1 &&
      util::trim(m_line).starts_with("The reason for the mismatch is: ")) {
    e.detail.push_back(line_text(m_raw));
    return;
  }
  if (found & a_draft_frame)
    draft_export_frame();
  else
    draft_export_code();
}

void Scanner::draft_export_frame() {
  auto& e = m_events[static_cast<std::size_t>(m_draft_event)];
  const auto frame = python_frame(m_line);
  if (!frame || m_number - e.where.line > 16) return;
  push_frame(e.frames, *frame);
  e.user_frame = user_frame_of(e.frames);
}

// The line under the report's last frame is its code; anything else ends the report's item.
void Scanner::draft_export_code() {
  auto& e = m_events[static_cast<std::size_t>(m_draft_event)];
  if (e.frames.empty()) {
    if (m_number - e.where.line > 4) m_draft_event = -1;
    return;
  }
  set_code(e.frames, m_line);
  m_draft_event = -1;
}

}  // namespace aoti::parsers::logs
