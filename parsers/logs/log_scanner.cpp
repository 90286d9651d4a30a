// The log scanner's driver: reads lines through the bounded line reader, prepares each (its CI or
// logger prefix off, its anchors found) and runs the recognizers of the table on it.
#include "parsers/logs/log_scanner.hpp"

#include <climits>

#include <fmt/format.h>

#include "parsers/logs/printer_reader.hpp"
#include "parsers/logs/scanner.hpp"
#include "util/anchor_set.hpp"
#include "util/line_reader.hpp"
#include "util/text.hpp"
#include "util/utf8.hpp"

namespace aoti::parsers::logs {
namespace {

// Longer lines are cut: no message we look for is anywhere near this long, and it bounds memory
// for logs that are one huge line (a binary dump, a progress bar without newlines).
constexpr std::size_t k_max_line = 64 * 1024;

// `2024-04-11T19:39:33.1626214Z` / `2024-04-11 19:39:33,123`: the length of an ISO timestamp at the
// start of `text`, 0 when there is none.
std::size_t iso_timestamp_length(std::string_view text) {
  constexpr std::string_view k_shape = "dddd-dd-ddxdd:dd:dd";
  if (text.size() < k_shape.size()) return 0;
  for (std::size_t i = 0; i < k_shape.size(); ++i) {
    const char want = k_shape[i];
    const char c = text[i];
    if (want == 'd' ? !util::is_digit(c) : want == 'x' ? (c != 'T' && c != ' ') : c != want)
      return 0;
  }
  std::size_t end = k_shape.size();
  if (end < text.size() && (text[end] == '.' || text[end] == ',')) {
    ++end;
    while (end < text.size() && util::is_digit(text[end])) ++end;
  }
  if (end < text.size() && text[end] == 'Z') ++end;
  return end;
}

const util::AnchorSet& anchors() {
  static const util::AnchorSet set({
      {"input_handles[", a_input_handles},
      {"Mixed-device constants", a_mixed_device},
      {"Expected all tensors to be on the same device", a_same_device},
      {"resides on host memory", a_host_pointer},
      {"Expected out tensor to have device", a_out_tensor},
      {"API call failed at ", a_api_call},
      {"Assertion ", a_assertion},
      {"CUDA error: ", a_cuda_error},
      {"CUDA Error: ", a_cuda_error},
      {"CUDA driver error: ", a_cuda_driver},
      {"cudaError", a_cuda_enum},
      // cudaGetErrorString's texts of the faults a kernel causes, as libraries' own checks print
      // them without c10's `CUDA error: ` (k2's `Check failed: ret == cudaSuccess (700 vs. 0)
      // Error: an illegal memory access was encountered.`).
      {"an illegal memory access was encountered", a_cuda_enum},
      {"an illegal instruction was encountered", a_cuda_enum},
      {"unspecified launch failure", a_cuda_enum},
      {"misaligned address", a_cuda_enum},
      {"CUBLAS_STATUS_", a_cublas},
      {"Triton Error [CUDA]: ", a_triton_error},
      {"terminate called", a_terminate},
      // libc++abi (macOS, clang's runtime): `libc++abi: terminating due to uncaught exception of
      // type std::invalid_argument: <what>`.
      {"uncaught exception of type ", a_terminate},
      {"Abort trap: 6", a_aborted},  // macOS shells' report of SIGABRT
      {"Segmentation fault", a_segfault},
      {"SIGSEGV", a_sigsegv},
      {"stop reason = EXC_BAD_ACCESS", a_sigsegv},  // lldb: a Mach memory fault
      {"Sanitizer: ", a_sigsegv},  // `==6330==ERROR: AddressSanitizer: SEGV on unknown address`
      {"Aborted (core dumped)", a_aborted},
      {"Fatal Python error: Aborted", a_fatal_abort},
      {"Bus error", a_bus_error},
      {"torch._export.aot_compile", a_aot_api},
      {"torch._export.aot_load", a_aot_api},
      {"nan", a_nonfinite},
      {"NaN", a_nonfinite},
      {"inf", a_nonfinite},
      {"Inf", a_nonfinite},
      {"_export/__init__.py", a_export_frame},
      {"Constraints violated (", a_constraints},
      {"You marked ", a_marked_dynamic},
      {"Not all values of ", a_not_all_values},
      {"Suggested fixes:", a_suggested_fixes},
      {"data-dependent expression", a_data_dependent},
      {"Traceback (most recent call last):", a_traceback},
      // TorchScript's interpreter: `Traceback of TorchScript (most recent call last):`, also
      // `Traceback of TorchScript, serialized code (most recent call last):`.
      {"Traceback of TorchScript", a_traceback},
      {"error", a_error_word},
      {"fatal ", a_fatal_word},
      {"undefined reference to ", a_undefined_reference},
      {": cannot find -l", a_cannot_find_library},
      {": undefined symbol: ", a_undefined_symbol},
      {"undefined symbol: ", a_undefined_symbol},
      {": cannot open shared object file", a_cannot_open_object},
      {": version ", a_symbol_version},
      {": wrong ELF class: ", a_wrong_elf_class},
      {": invalid ELF header", a_invalid_elf},
      {"Could not find schema for ", a_missing_schema},
      {"Error in dlopen", a_dlopen},
      {"File \"", a_python_frame},
      {"frame #", a_c10_frame},
      {"In file included from ", a_included_from},
      {"Error: ", a_error_prefix},
      {"Exception in aoti_torch: ", a_shim_exception},
      {"Unknown exception occurred.", a_unknown_exception},
      {"Exception raised from ", a_raised_from},
      {"Command '[", a_called_process},
      {"unable to evaluate the value of `", a_draft_data_dependent},
      {" is missing a fake kernel implementation", a_draft_report},
      {" has a fake kernel implementation, but it has incorrect behavior", a_draft_report},
      {"Specifically, this guard was added: ", a_draft_report},
      {", lineno ", a_draft_frame},
      {") = ", a_syscall_result},
      {"(required by ", a_required_by},
      {"GuardImpl initialized with non-", a_device_guard},
      {"While executing %", a_while_executing},
      {" has device_type=CUDA but its data pointer", a_tagged_cuda},
      {": test", a_test_result},
      {" zip archive", a_package_loader},
      {"OMP: Error #", a_openmp_error},
      {" already initialized", a_openmp_error},  // the same message, its `OMP: ` cut off
      // mkl-service's check of MKL's threading layer against the OpenMP runtime already loaded.
      {"MKL_THREADING_LAYER=", a_openmp_error},
      {"unable to execute '", a_fatal_word},
      {"LLVM ERROR: ", a_fatal_word},
      {"Unsupported gpu architecture '", a_fatal_word},
      {"for option 'gpu-architecture'", a_fatal_word},
      {"Failed building wheel for ", a_fatal_word},
      {" (most recent call first):", a_faulthandler},
      {".py\", line ", a_cut_frame},
      {": in ", a_cut_frame},    // pytest's `path.py:164: in <module>`
      {".py in ", a_cut_frame},  // IPython's `/x/cuda.py in checkCUStatus(error)`
      {".py:", a_cut_frame},     // IPython 8's `File /x/cuda.py:216, in checkCUStatus(error)`
      {"<ipython-input-", a_cut_frame},
      {"TORCHDYNAMO_VERBOSE=1", a_dynamo_footer},
      {"Set torch._dynamo.config.verbose=True", a_dynamo_footer},  // torch 2.0, 2.1
      {"You can suppress this exception and fall back to eager", a_dynamo_footer},
      {"index out of bounds: ", a_index_check},
      {" with CUDA capability sm_", a_gpu_capability},
      {"torch.Size([", a_printed_size},
      {" was resized since it had shape [", a_resized},
  });
  return set;
}

// torch's own logging format (torch/_logging/_internal.py: `%(levelname)1s%(asctime)s
// %(process)d %(pathname)s:%(lineno)d] `, as glog prints it): `W0516 15:40:36.148000 12260
// F:\...\convert_frame.py:1280] `. The length of that prefix, 0 when the line has none.
std::size_t torch_log_prefix_length(std::string_view line) {
  constexpr std::string_view k_levels = "DIWEFC";
  constexpr std::string_view k_shape = "Ldddd dd:dd:dd";
  if (line.size() < k_shape.size() + 4) return 0;
  for (std::size_t i = 0; i < k_shape.size(); ++i) {
    const char want = k_shape[i];
    const char c = line[i];
    if (want == 'L'   ? k_levels.find(c) == std::string_view::npos
        : want == 'd' ? !util::is_digit(c)
                      : c != want)
      return 0;
  }
  // The fraction, the process id, then the path and line before `] `.
  std::size_t at = k_shape.size();
  if (line[at] == '.')
    while (++at < line.size() && util::is_digit(line[at])) {
    }
  if (at >= line.size() || line[at] != ' ') return 0;
  const auto pid = util::digits_at(line, at + 1);
  if (pid.empty()) return 0;
  at += 1 + pid.size();
  if (at >= line.size() || line[at] != ' ') return 0;
  const auto close = line.find(']', at);
  if (close == std::string_view::npos || close > at + 512) return 0;
  const auto colon = line.rfind(':', close);
  if (colon == std::string_view::npos || colon <= at ||
      util::digits_at(line, colon + 1).size() != close - colon - 1 || close == colon + 1)
    return 0;
  return close + 1 < line.size() && line[close + 1] == ' ' ? close + 2 : close + 1;
}

// What torch's log formatter puts after its prefix (torch/_logging/_internal.py): the trace id of
// the compile the record belongs to (`[5/0_2] `: frame 5, its compile 0, attempt 2; `[!0/0/1] `
// under compiled autograd) and an artifact's tag (`[__graph_breaks] `).
std::string_view strip_trace_tags(std::string_view line) {
  if (line.starts_with('[')) {
    const auto close = line.find(']');
    const auto id =
        close == std::string_view::npos ? std::string_view() : line.substr(1, close - 1);
    if (!id.empty() && id.find('/') != std::string_view::npos &&
        id.find_first_not_of("0123456789/_!") == std::string_view::npos) {
      line.remove_prefix(close + 1);
      if (line.starts_with(' ')) line.remove_prefix(1);
    }
  }
  if (line.starts_with("[__")) {
    const auto close = line.find("] ");
    if (close != std::string_view::npos && close < 64) line.remove_prefix(close + 2);
  }
  return line;
}

}  // namespace

std::string line_text(std::string_view raw) {
  static constexpr std::string_view k_cut = "\u2026";
  std::string text = util::clean_text(util::trim(raw), k_max_text + 1);
  if (text.size() <= k_max_text) return text;
  std::size_t end = k_max_text - k_cut.size();
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  text.resize(end);
  return text.append(k_cut);
}

// What CI systems, launchers and loggers put before every line: `[rank7]: ` (torchrun),
// `[2024-04-11T19:39:18.128Z] ` (Jenkins),
// `2024-04-11T19:39:33.1626214Z ` (GitHub Actions), `ERROR 07-23 07:21:49 [core.py:586] ` (vLLM's
// logger). glog's `[E1119 16:44:43.826 shim_common.cpp:403] ` stays: it names the file that spoke.
std::string_view strip_log_prefix(std::string_view line) {
  // A post's Markdown quote (`> ` before every line), not a doctest prompt (`>>> `).
  if (line.starts_with("> ")) line.remove_prefix(2);
  // pytest's failure report marks the exception's lines with `E` in a margin of its own
  // (`E       torch._inductor.exc.InductorError: ...`).
  if (line.starts_with("E   ")) {
    const auto text = line.find_first_not_of(' ', 1);
    line.remove_prefix(text == std::string_view::npos ? line.size() : text);
  }
  // Ray's and vLLM's worker prefix: `(EngineCore_DP0 pid=73386) `, `(RayWorkerWrapper pid=12) `,
  // also behind a harness's bracketed tag (`[test 1] (EngineCore pid=2328) `).
  if (line.starts_with('[')) {
    const auto close = line.find("] (");
    if (close != std::string_view::npos && close < 32 &&
        line.substr(close + 2, 96).find(" pid=") != std::string_view::npos)
      line.remove_prefix(close + 2);
  }
  // Nested launchers tag a line once each: `(EngineCore_DP0 pid=26353) (Worker_TP7 pid=26373) `.
  for (int tag = 0; tag < 4 && line.starts_with('('); ++tag) {
    const auto close = line.find(") ");
    const auto pid = line.find(" pid=");
    if (close == std::string_view::npos || close >= 96 || pid == std::string_view::npos ||
        pid > close || !util::is_digit(line[close - 1]))
      break;
    line.remove_prefix(close + 2);
  }
  // torchrun's per-process prefix: `[rank7]: `, `[default0]:`.
  if (line.starts_with("[rank") || line.starts_with("[default")) {
    const auto close = line.find("]:");
    if (close != std::string_view::npos && close < 16 && util::is_digit(line[close - 1]))
      line.remove_prefix(close + 2 + (line.size() > close + 2 && line[close + 2] == ' '));
  }
  if (const auto length = torch_log_prefix_length(line); length > 0)
    return strip_trace_tags(line.substr(length));
  if (line.size() > 2 && line[0] == '[' && util::is_digit(line[1])) {
    const auto close = line.find("] ");
    if (close != std::string_view::npos && close < 48) line.remove_prefix(close + 2);
  } else if (const auto length = iso_timestamp_length(line);
             length > 0 && length < line.size() && line[length] == ' ') {
    line.remove_prefix(length + 1);
  } else {
    for (std::string_view level : {"DEBUG ", "INFO ", "WARNING ", "ERROR ", "CRITICAL "}) {
      if (!line.starts_with(level)) continue;
      // `MM-DD HH:MM:SS [file.py:123] `
      const auto rest = line.substr(level.size());
      const auto close = rest.find("] ");
      if (rest.size() > 15 && util::is_digit(rest[0]) && rest[2] == '-' && rest[5] == ' ' &&
          close != std::string_view::npos && close < 64 &&
          rest.substr(0, close).find(" [") != std::string_view::npos)
        line.remove_prefix(level.size() + close + 2);
      break;
    }
  }
  return line;
}

// One line may give several events; they come in this order. The recognizers that run on every line
// (anchors 0) continue a message begun on an earlier line or check a cheap shape of their own.
const Scanner::Recognizer Scanner::k_recognizers[] = {
    {a_input_handles, &Scanner::input_check},
    {a_mixed_device, &Scanner::mixed_device},
    {a_same_device, &Scanner::same_device},
    {a_host_pointer, &Scanner::host_pointer},
    {a_test_result, &Scanner::test_result},
    {a_tagged_cuda, &Scanner::tagged_cuda_on_host},
    {a_out_tensor, &Scanner::out_tensor},
    {a_printed_size | a_resized, &Scanner::observed_shape},
    {a_api_call, &Scanner::api_call_failed},
    {a_assertion, &Scanner::assertion},
    {a_index_check, &Scanner::index_check},
    {a_raised_from, &Scanner::exception_from},
    {a_cuda_error | a_cuda_driver | a_cuda_enum | a_cublas | a_triton_error, &Scanner::cuda_error},
    {a_terminate, &Scanner::terminate},
    {a_segfault | a_sigsegv | a_aborted | a_fatal_abort | a_bus_error, &Scanner::crash_signal},
    {a_aot_api | a_export_frame, &Scanner::deprecated_api},
    {a_constraints, &Scanner::constraints_violated},
    {a_marked_dynamic, &Scanner::marked_dynamic},
    {a_not_all_values, &Scanner::not_all_values},
    {a_suggested_fixes, &Scanner::start_suggested_fixes},
    {a_data_dependent, &Scanner::data_dependent},
    {a_error_word | a_fatal_word | a_undefined_reference | a_cannot_find_library,
     &Scanner::compiler_line},
    {0, &Scanner::include_line},
    {0, &Scanner::command_line},
    {0, &Scanner::version_required_by},
    {k_load_anchors, &Scanner::load_line},
    {a_error_prefix | a_shim_exception | a_unknown_exception | a_raised_from | a_device_guard,
     &Scanner::runtime_line},
    {a_openmp_error, &Scanner::openmp_error},
    {a_gpu_capability, &Scanner::gpu_capability},
    {a_while_executing, &Scanner::while_executing},
    {a_syscall_result, &Scanner::syscall_line},
    {a_draft_data_dependent | a_draft_report, &Scanner::draft_export_failure},
    {0, &Scanner::draft_export_continuation},
    {0, &Scanner::native_frame_line},
    {0, &Scanner::module_list_line},
    {0, &Scanner::from_user_code},
    {0, &Scanner::graph_break},
    {0, &Scanner::caret_line},
    {0, &Scanner::shell_trace},
    {a_nonfinite, &Scanner::printed_values},
    {a_dynamo_footer, &Scanner::dynamo_footer},
    {a_faulthandler, &Scanner::faulthandler_stack},
    {0, &Scanner::exception_outside_traceback},
    {a_traceback, &Scanner::start_traceback},
};

void Scanner::scan(std::string_view line, int number) {
  if (line.ends_with('\r')) line.remove_suffix(1);
  // Events quote the line as the log holds it; the recognisers read it without the timestamp or
  // level a CI system or logger put in front of every line.
  m_raw = line;
  line = strip_log_prefix(line);
  const std::uint64_t found = anchors().find_all(line);
  m_line = line;
  m_number = number;
  m_line_had_event = false;

  // The messages that continue from the lines before.
  m_exception_line = false;
  m_faulthandler_line = m_faulthandler_event >= 0 && continue_faulthandler_stack();
  chain_line();
  m_message_line = m_detail_event >= 0 && continue_detail(found);
  if (m_in_traceback) m_exception_line = continue_traceback();
  if (m_pending_terminate) finish_terminate();
  if (m_in_suggested_fixes) continue_suggested_fixes();
  if (m_diagnostic_event >= 0 || m_pending_bare) continue_diagnostic();
  if (m_statement_event >= 0) continue_statement();

  for (const Recognizer& recognizer : k_recognizers)
    if (recognizer.anchors == 0 || (found & recognizer.anchors) != 0)
      (this->*recognizer.recognize)(found);
  remember_line();
}

std::string_view Scanner::recent_line(int number) const {
  for (const auto& [at, text] : m_recent)
    if (at == number && number > 0) return text;
  return {};
}

std::string_view Scanner::line_above() const {
  const auto& [number, text] = m_recent[(m_recent_next + m_recent.size() - 1) % m_recent.size()];
  return number > 0 && number == m_number - 1 ? std::string_view(text) : std::string_view();
}

// Keeps the last few lines as the log holds them (for messages that name the line above).
void Scanner::remember_line() {
  m_recent[m_recent_next] = {m_number, std::string(m_raw.substr(0, k_max_text))};
  m_recent_next = (m_recent_next + 1) % m_recent.size();
}

LogScan Scanner::finish(std::uint64_t lines) {
  if (m_pending_terminate) commit_terminate();
  // A bare `error: 'aoti_torch_x' was not declared in this scope` with no excerpt under it (a post
  // that kept the one line): a compiler's when it quotes a name, as compilers do, or is a
  // preprocessor `#error` directive, and the log states no other error.
  if (m_pending_bare && !m_unclaimed_bare) m_unclaimed_bare = std::move(m_pending_bare);
  m_pending_bare.reset();
  if (m_unclaimed_bare && m_last_error < 0) {
    const auto& bare = *m_unclaimed_bare;
    if (bare.problem == "missing header" || bare.problem == "error directive" ||
        bare.value.find('\'') != std::string::npos ||
        bare.value.find("\xE2\x80\x98") != std::string::npos) {
      auto e = std::move(*m_unclaimed_bare);
      e.detail.clear();
      commit_diagnostic(std::move(e));
    }
  }
  commit_cut_traceback();
  // A code line with Python's carets under it (3.11+ marks the expression that raised) and nothing
  // else that states an error: the one frame a paste kept of a traceback.
  if (m_caret_code_line > 0 && m_last_error < 0) {
    auto e = event(LogEventKind::python_exception);
    e.complete = false;
    e.where.line = m_caret_code_line;
    e.text = line_text(m_caret_code);
    e.orphan_code_line = m_caret_code_line;
    e.orphan_code = e.text;
    m_events.push_back(std::move(e));
    m_last_exception = static_cast<int>(m_events.size() - 1);
  }
  resolve_chains();
  if (m_last_exception >= 0) m_events[static_cast<std::size_t>(m_last_exception)].final = true;
  LogScan scan;
  scan.events = std::move(m_events);
  scan.lines = lines;
  if (m_dropped > 0)
    scan.diagnostics.push_back(
        {m_display, fmt::format("more than {} distinct log events; {} more were not kept",
                                k_max_events, m_dropped)});
  return scan;
}

// Each exception raised `from` another one names the first exception of that chain. Events come in
// log order, so the exception before one in a chain is already resolved when it is reached.
void Scanner::resolve_chains() {
  std::unordered_map<int, std::size_t> exception_at;
  for (std::size_t i = 0; i < m_events.size(); ++i) {
    auto& e = m_events[i];
    if (e.kind != LogEventKind::python_exception) continue;
    exception_at.emplace(e.where.line, i);
    if (e.link != model::ExceptionLink::direct_cause) continue;
    const auto before = exception_at.find(e.chained_from_line);
    if (before == exception_at.end() || before->second == i) continue;
    const auto& cause = m_events[before->second];
    e.root_cause_type = cause.root_cause_type.empty() ? cause.subject : cause.root_cause_type;
    e.root_cause_raised_in =
        cause.root_cause_type.empty() ? cause.raised_in : cause.root_cause_raised_in;
  }
}

LogEvent Scanner::event(LogEventKind kind) const {
  LogEvent e;
  e.kind = kind;
  e.where.artifact = m_display;
  e.where.line = m_number;
  return e;
}

// Identical events (same kind and key) fold into the first one seen, which keeps its line and
// text (taken only then: a log may repeat one error millions of times).
LogEvent* Scanner::add(LogEvent e, std::string_view key) {
  m_line_had_event = true;
  std::string full_key = fmt::format("{}\x1f{}", static_cast<int>(e.kind), key);
  if (auto it = m_folded.find(full_key); it != m_folded.end()) {
    ++m_events[it->second].repeats;
    return &m_events[it->second];
  }
  if (m_events.size() >= k_max_events) {
    ++m_dropped;
    return nullptr;
  }
  m_folded.emplace(std::move(full_key), m_events.size());
  if (e.text.empty()) e.text = line_text(m_raw);
  m_events.push_back(std::move(e));
  const int index = static_cast<int>(m_events.size() - 1);
  switch (m_events.back().kind) {
    case LogEventKind::segfault:
      m_last_crash = index;
      [[fallthrough]];
    case LogEventKind::python_exception:
    case LogEventKind::runtime_error:
    case LogEventKind::terminate:
    case LogEventKind::cuda_error:
    case LogEventKind::load_error:
    case LogEventKind::triton_assert:  // a C++ kernel's check is a c10::Error: its frames follow it
    case LogEventKind::api_call_failed:
      m_last_error = index;
      break;
    default:
      break;
  }
  return &m_events.back();
}

namespace {

// Scans every line `reader` gives; a line longer than the cap is scanned by its first bytes, and
// the first such line is named in a diagnostic.
LogScan scan_lines(util::LineReader& reader, const std::string& display) {
  Scanner scanner(display);
  PrinterReader printer(display);
  OutputCodeReader output_code;
  util::Line line;
  std::uint64_t lines = 0;
  while (reader.next(line)) {
    ++lines;
    const int number = line.number > INT_MAX ? INT_MAX : static_cast<int>(line.number);
    scanner.scan(line.text, number);
    std::string_view text = line.text;
    if (text.ends_with('\r')) text.remove_suffix(1);
    printer.scan(strip_log_prefix(text), text, number);
    output_code.scan(text, number);
  }
  auto scan = scanner.finish(lines);
  scan.debug_run = printer.finish();
  scan.output_code = output_code.finish();
  if (reader.cut_lines() > 0) {
    auto message = fmt::format(
        "line {} is longer than {} bytes ({} bytes); only its first {} bytes were scanned",
        reader.first_cut_line(), k_max_line, reader.first_cut_length(), k_max_line);
    if (reader.cut_lines() > 1)
      message += fmt::format(" ({} lines were cut the same way)", reader.cut_lines());
    scan.diagnostics.insert(scan.diagnostics.begin(),
                            model::Diagnostic{display, std::move(message)});
  }
  return scan;
}

}  // namespace

Parsed<LogScan> scan_log_file(const std::filesystem::path& path, const std::string& display) {
  util::LineReader reader(path, k_max_line);
  if (!reader.is_open())
    return fail(fmt::format("cannot open {}: {}", path.string(), reader.error()));
  auto scan = scan_lines(reader, display);
  if (!reader.error().empty())
    return fail(fmt::format("cannot read {}: {}", path.string(), reader.error()));
  return scan;
}

LogScan scan_log_text(std::string_view text, const std::string& display) {
  auto reader = util::LineReader::of_text(text, k_max_line);
  return scan_lines(reader, display);
}

}  // namespace aoti::parsers::logs
