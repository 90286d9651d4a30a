// Recognizers of the build and of loading: compiler diagnostics with their include chain and source
// excerpt, compiler commands, dynamic-loader errors, and strace's failing mmap of a shared object.
#include "parsers/logs/scanner.hpp"

#include <fmt/format.h>

#include "util/text.hpp"
#include "util/utf8.hpp"

namespace aoti::parsers::logs {

void Scanner::compiler_line(std::uint64_t) {
  const auto d = compiler_diagnostic(m_line);
  if (!d) return;
  auto e = event(LogEventKind::compile_error);
  e.problem = d->problem;
  e.subject = util::clean_text(d->subject, k_max_field);
  e.value = util::clean_text(d->message, k_max_field);
  e.source_file = util::clean_text(d->file, k_max_field);
  e.source_line = d->line;
  if (m_include_line > 0 && m_number - m_include_line <= 8) e.unit = m_include_root;
  // A bare `error:` is a compiler's when its source excerpt follows, or when the log already
  // holds compiler output.
  if (d->bare && !m_saw_compiler) {
    e.text = line_text(m_raw);
    m_pending_bare = std::move(e);
    m_diagnostic_event = -1;
    return;
  }
  commit_diagnostic(std::move(e));
}

void Scanner::commit_diagnostic(LogEvent e) {
  m_saw_compiler = true;
  const auto key = fmt::format("{}|{}|{}|{}", e.problem, e.source_file, e.source_line, e.value);
  const int line = e.where.line;
  const LogEvent* added = add(std::move(e), key);
  m_diagnostic_event = appended(added) ? index_of(added) : -1;
  m_diagnostic_line = line;
}

// The lines under a diagnostic: its message where a paste broke it, the source excerpt
// (`  605 |     int64_t int_array_0[] = {buf0};`) and the caret line.
void Scanner::continue_diagnostic() {
  if (m_pending_bare) {
    if (m_number - m_pending_bare->where.line > k_max_diagnostic_tail) {
      // No excerpt came: kept aside, in case the log states no other error (finish()).
      if (!m_unclaimed_bare) {
        m_unclaimed_bare = std::move(m_pending_bare);
        m_unclaimed_bare->detail.clear();
      }
      m_pending_bare.reset();
    } else if (is_compiler_excerpt(m_line)) {
      auto e = std::move(*m_pending_bare);
      m_pending_bare.reset();
      commit_diagnostic(std::move(e));
    } else {
      m_pending_bare->detail.push_back(util::clean_text(m_raw, k_max_text));
      return;
    }
  }
  if (m_diagnostic_event < 0) return;
  auto& e = m_events[static_cast<std::size_t>(m_diagnostic_event)];
  const auto body = util::trim(m_line);
  const bool excerpt = is_compiler_excerpt(m_line) || body.starts_with('|');
  const bool continued =
      e.detail.empty() && e.source_file.empty() && !body.empty() && !compiler_diagnostic(m_line);
  const bool after_excerpt = !e.detail.empty() && is_compiler_excerpt(e.detail.back()) &&
                             !body.empty() &&
                             !compiler_diagnostic(m_line);  // an excerpt line that a paste broke
  if (m_number - m_diagnostic_line > k_max_diagnostic_tail ||
      !(excerpt || continued || after_excerpt) ||
      static_cast<int>(e.detail.size()) != m_number - e.where.line - 1) {
    m_diagnostic_event = -1;
    return;
  }
  e.detail.push_back(util::clean_text(m_raw, k_max_text));
}

void Scanner::include_line(std::uint64_t found) {
  if (!(found & a_included_from) &&
      !(m_include_line == m_number - 1 && util::trim(m_line).starts_with("from ")))
    return;
  const auto file = include_chain_file(m_line);
  if (file.empty()) return;
  m_include_root = util::clean_text(file, k_max_field);
  m_include_line = m_number;
}

void Scanner::command_line(std::uint64_t found) {
  if (!(found & a_called_process)) {
    // Most lines are not commands: only a short first word can name a compiler.
    const auto first = util::first_word(m_line);
    if (first.empty() || first.size() > 120 ||
        (first != "+" && first != "$" && first.find("cc") == std::string_view::npos &&
         first.find("++") == std::string_view::npos &&
         first.find("clang") == std::string_view::npos && first != "icpx" && first != "icx"))
      return;
  }
  const auto command = compiler_command(m_line);
  if (!command) return;
  auto e = event(LogEventKind::compile_command);
  e.subject = util::clean_text(command->compiler, k_max_field);
  e.source_file = util::clean_text(command->source, k_max_field);
  e.value = util::clean_text(command->output, k_max_field);
  if (!command->status.empty()) e.problem = "exit status " + command->status;
  const auto key = fmt::format("{}|{}|{}", e.subject, e.source_file, e.value);
  add(std::move(e), key);
}

void Scanner::load_line(std::uint64_t) {
  auto failure = load_failure(m_line);
  // The loader's message broken after the library's name by a paste or a terminal
  // (`ImportError: /x/ext.so:` then `  undefined symbol: _ZN3c10...`): read as one line.
  if (!failure && util::trim(m_line).starts_with("undefined symbol: ")) {
    const auto head = util::trim(strip_log_prefix(line_above()));
    if (head.ends_with(".so:"))
      failure = load_failure(std::string(head) + " " + std::string(util::trim(m_line)));
  }
  if (!failure) return;
  auto e = event(LogEventKind::load_error);
  e.problem = failure->problem;
  e.subject = util::clean_text(failure->library, k_max_field);
  e.value = util::clean_text(failure->detail, k_max_field);
  e.source_file = util::clean_text(failure->required_by, k_max_field);
  const auto key = fmt::format("{}|{}|{}", e.problem, e.subject, e.value);
  const bool wants_requirer = e.problem == "missing symbol version" && e.source_file.empty();
  const LogEvent* added = add(std::move(e), key);
  m_version_event = wants_requirer && appended(added) ? index_of(added) : -1;
}

// glibc's `version `GLIBCXX_3.4.20' not found (required by x.so)` broken over two lines by a paste
// or a terminal: the next line names the library that needs the version.
void Scanner::version_required_by(std::uint64_t found) {
  if (m_version_event < 0) return;
  auto& e = m_events[static_cast<std::size_t>(m_version_event)];
  m_version_event = -1;
  if (!(found & a_required_by) || e.where.line != m_number - 1) return;
  e.source_file = util::clean_text(util::between(m_line, "(required by ", ")"), k_max_field);
  e.detail.push_back(util::clean_text(m_raw, k_max_text));
}

// strace: `openat(AT_FDCWD, "/m/model.so", O_RDONLY) = 3` remembers what descriptor 3 is;
// `mmap(NULL, 6144375816, PROT_READ|PROT_WRITE, MAP_PRIVATE, 3, 0xd8000) = -1 EINVAL (...)` on a
// shared object's descriptor is its loading failing.
void Scanner::syscall_line(std::uint64_t) {
  const auto line = util::trim(m_line);
  const auto name = util::identifier_at(line, 0);
  if (name.empty() || line.size() <= name.size() || line[name.size()] != '(') return;
  const auto result_at = line.rfind(") = ");
  if (result_at == std::string_view::npos) return;
  const auto result = line.substr(result_at + 4);
  if (name == "openat" || name == "open") {
    const auto path = util::between(line, "\"", "\"");
    const auto fd = util::digits_at(result, 0);
    if (!path.empty() && !fd.empty() && m_descriptors.size() < 4096)
      m_descriptors[std::string(fd)] = util::clean_text(path, k_max_field);
    return;
  }
  if ((name != "mmap" && name != "mmap2") || !result.starts_with("-1 E")) return;
  // The descriptor is mmap's fifth argument.
  auto args = line.substr(name.size() + 1, result_at - name.size() - 1);
  for (int skip = 0; skip < 4 && !args.empty(); ++skip) {
    const auto comma = args.find(',');
    args = comma == std::string_view::npos ? std::string_view{} : args.substr(comma + 1);
  }
  const auto fd = util::digits_at(util::trim(args), 0);
  const auto it = m_descriptors.find(std::string(fd));
  if (fd.empty() || it == m_descriptors.end()) return;
  const auto& path = it->second;
  if (!path.ends_with(".so") && path.find(".so.") == std::string::npos) return;
  auto e = event(LogEventKind::load_error);
  e.problem = "mmap failed";
  e.subject = path;
  e.value = util::clean_text(util::first_word(result.substr(3)), k_max_field);
  const auto key = fmt::format("{}|{}|{}", e.problem, e.subject, e.value);
  add(std::move(e), key);
}

}  // namespace aoti::parsers::logs
