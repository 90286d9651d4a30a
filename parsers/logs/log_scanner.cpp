#include "parsers/logs/log_scanner.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <optional>
#include <unordered_map>

#include <fmt/format.h>

#include "parsers/logs/failure_lines.hpp"
#include "torch/index_assert.hpp"
#include "util/anchor_set.hpp"
#include "util/line_reader.hpp"
#include "util/text.hpp"
#include "util/utf8.hpp"

namespace aoti::parsers::logs {
namespace {

using model::LogEvent;
using model::LogEventKind;

// Longer lines are cut: no message we look for is anywhere near this long, and it bounds memory
// for logs that are one huge line (a binary dump, a progress bar without newlines).
constexpr std::size_t k_max_line = 64 * 1024;
constexpr std::size_t k_max_text = 1000;
constexpr std::size_t k_max_field = 300;
// A hostile log may hold millions of distinct errors; past this many, new ones are only counted.
constexpr std::size_t k_max_events = 10000;
// A traceback's frames and an exception message's further lines, per event.
constexpr std::size_t k_max_frames = 48;
constexpr std::size_t k_max_detail_lines = 60;
// A compiler diagnostic's lines under it (message continued, source excerpt, caret).
constexpr int k_max_diagnostic_tail = 4;

// One flag per anchor substring; a line is parsed in detail only for the anchors it contains.
enum AnchorFlag : std::uint64_t {
  a_input_handles = 1ull << 0,
  a_mixed_device = 1ull << 1,
  a_same_device = 1ull << 2,
  a_host_pointer = 1ull << 3,
  a_out_tensor = 1ull << 4,
  a_api_call = 1ull << 5,
  a_assertion = 1ull << 6,
  a_cuda_error = 1ull << 7,
  a_cuda_driver = 1ull << 8,
  a_cuda_enum = 1ull << 9,
  a_cublas = 1ull << 10,
  a_triton_error = 1ull << 11,
  a_terminate = 1ull << 12,
  a_segfault = 1ull << 13,
  a_sigsegv = 1ull << 14,
  a_aborted = 1ull << 15,
  a_fatal_abort = 1ull << 16,
  a_bus_error = 1ull << 17,
  a_aot_compile = 1ull << 18,
  a_aot_load = 1ull << 19,
  a_export_frame = 1ull << 20,
  a_constraints = 1ull << 21,
  a_marked_dynamic = 1ull << 22,
  a_not_all_values = 1ull << 23,
  a_suggested_fixes = 1ull << 24,
  a_data_dependent = 1ull << 25,
  a_traceback = 1ull << 26,
  a_error_word = 1ull << 27,
  a_fatal_word = 1ull << 28,
  a_undefined_reference = 1ull << 29,
  a_cannot_find_library = 1ull << 30,
  a_undefined_symbol = 1ull << 31,
  a_cannot_open_object = 1ull << 32,
  a_symbol_version = 1ull << 33,
  a_wrong_elf_class = 1ull << 34,
  a_invalid_elf = 1ull << 35,
  a_missing_schema = 1ull << 36,
  a_dlopen = 1ull << 37,
  a_python_frame = 1ull << 38,
  a_c10_frame = 1ull << 39,
  a_included_from = 1ull << 40,
  a_error_prefix = 1ull << 41,
  a_shim_exception = 1ull << 42,
  a_unknown_exception = 1ull << 43,
  a_raised_from = 1ull << 44,
  a_called_process = 1ull << 45,
  a_draft_data_dependent = 1ull << 46,
  a_draft_missing_fake = 1ull << 47,
  a_draft_frame = 1ull << 48,
  a_syscall_result = 1ull << 49,
  a_required_by = 1ull << 50,
  a_device_guard = 1ull << 51,
  a_while_executing = 1ull << 52,
  a_tagged_cuda = 1ull << 53,
  a_test_result = 1ull << 54,
  a_package_loader = 1ull << 57,
  a_index_check = 1ull << 55,
  a_exception_from = 1ull << 56,
  a_printed_size = 1ull << 58,
  a_resized = 1ull << 59,
};
constexpr std::uint64_t k_load_anchors = a_undefined_symbol | a_cannot_open_object | a_symbol_version | a_wrong_elf_class |
                                         a_invalid_elf | a_missing_schema | a_dlopen | a_package_loader;

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
      {"CUDA driver error: ", a_cuda_driver},
      {"cudaError", a_cuda_enum},
      {"CUBLAS_STATUS_", a_cublas},
      {"Triton Error [CUDA]: ", a_triton_error},
      {"terminate called", a_terminate},
      {"Segmentation fault", a_segfault},
      {"SIGSEGV", a_sigsegv},
      {"Aborted (core dumped)", a_aborted},
      {"Fatal Python error: Aborted", a_fatal_abort},
      {"Bus error", a_bus_error},
      {"torch._export.aot_compile", a_aot_compile},
      {"torch._export.aot_load", a_aot_load},
      {"_export/__init__.py", a_export_frame},
      {"Constraints violated (", a_constraints},
      {"You marked ", a_marked_dynamic},
      {"Not all values of ", a_not_all_values},
      {"Suggested fixes:", a_suggested_fixes},
      {"data-dependent expression", a_data_dependent},
      {"Traceback (most recent call last):", a_traceback},
      {"error", a_error_word},
      {"fatal ", a_fatal_word},
      {"undefined reference to ", a_undefined_reference},
      {": cannot find -l", a_cannot_find_library},
      {": undefined symbol: ", a_undefined_symbol},
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
      {" is missing a fake kernel implementation", a_draft_missing_fake},
      {", lineno ", a_draft_frame},
      {") = ", a_syscall_result},
      {"(required by ", a_required_by},
      {"GuardImpl initialized with non-", a_device_guard},
      {"While executing %", a_while_executing},
      {" has device_type=CUDA but its data pointer", a_tagged_cuda},
      {": test", a_test_result},
      {" zip archive", a_package_loader},
      {"index out of bounds: ", a_index_check},
      {"Exception raised from ", a_exception_from},
      {"torch.Size([", a_printed_size},
      {" was resized since it had shape [", a_resized},
  });
  return set;
}

// Messages of CUDA runtime error enums, so that `cudaErrorAssert` and `CUDA error: device-side
// assert triggered` fold into one event.
std::string_view cuda_enum_message(std::string_view name) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 8> k_messages{{
      {"cudaErrorIllegalAddress", "an illegal memory access was encountered"},
      {"cudaErrorAssert", "device-side assert triggered"},
      {"cudaErrorLaunchFailure", "unspecified launch failure"},
      {"cudaErrorMemoryAllocation", "out of memory"},
      {"cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
      {"cudaErrorMisalignedAddress", "misaligned address"},
      {"cudaErrorIllegalInstruction", "an illegal instruction was encountered"},
      {"cudaErrorNoKernelImageForDevice", "no kernel image is available for execution on the device"},
  }};
  for (const auto& [enum_name, message] : k_messages)
    if (enum_name == name) return message;
  return name;
}

// The label in `6(at::kFloat)`, "" when there is none.
std::string_view label_of(std::string_view printed) {
  const auto open = printed.find('(');
  if (open == std::string_view::npos || !printed.ends_with(')')) return {};
  return printed.substr(open + 1, printed.size() - open - 2);
}

// `path/to/file.py:33: ...` anywhere in `prefix`: the first `:<digits>:` and the path before it.
bool find_source_location(std::string_view prefix, std::string& file, int& line) {
  for (auto colon = prefix.find(':'); colon != std::string_view::npos; colon = prefix.find(':', colon + 1)) {
    const auto digits = util::digits_at(prefix, colon + 1);
    if (digits.empty() || colon + 1 + digits.size() >= prefix.size() || prefix[colon + 1 + digits.size()] != ':')
      continue;
    const auto start = prefix.find_last_of(" \t", colon);
    const auto path = prefix.substr(start == std::string_view::npos ? 0 : start + 1,
                                    colon - (start == std::string_view::npos ? 0 : start + 1));
    // A timestamp's "12:00:00" has the same shape; a source path has an extension.
    if (path.find('.') == std::string_view::npos) continue;
    file = util::clean_text(path, k_max_field);
    line = util::to_int(digits).value_or(0);
    return true;
  }
  return false;
}

// `2024-04-11T19:39:33.1626214Z` / `2024-04-11 19:39:33,123`: the length of an ISO timestamp at the
// start of `text`, 0 when there is none.
std::size_t iso_timestamp_length(std::string_view text) {
  constexpr std::string_view k_shape = "dddd-dd-ddxdd:dd:dd";
  if (text.size() < k_shape.size()) return 0;
  for (std::size_t i = 0; i < k_shape.size(); ++i) {
    const char want = k_shape[i];
    const char c = text[i];
    if (want == 'd' ? !util::is_digit(c) : want == 'x' ? (c != 'T' && c != ' ') : c != want) return 0;
  }
  std::size_t end = k_shape.size();
  if (end < text.size() && (text[end] == '.' || text[end] == ',')) {
    ++end;
    while (end < text.size() && util::is_digit(text[end])) ++end;
  }
  if (end < text.size() && text[end] == 'Z') ++end;
  return end;
}

// What CI systems and loggers put before every line: `[2024-04-11T19:39:18.128Z] ` (Jenkins),
// `2024-04-11T19:39:33.1626214Z ` (GitHub Actions), `ERROR 07-23 07:21:49 [core.py:586] ` (vLLM's
// logger). glog's `[E1119 16:44:43.826 shim_common.cpp:403] ` stays: it names the file that spoke.
std::string_view strip_log_prefix(std::string_view line) {
  if (line.size() > 2 && line[0] == '[' && util::is_digit(line[1])) {
    const auto close = line.find("] ");
    if (close != std::string_view::npos && close < 48) line.remove_prefix(close + 2);
  } else if (const auto length = iso_timestamp_length(line); length > 0 && length < line.size() && line[length] == ' ') {
    line.remove_prefix(length + 1);
  } else {
    for (std::string_view level : {"DEBUG ", "INFO ", "WARNING ", "ERROR ", "CRITICAL "}) {
      if (!line.starts_with(level)) continue;
      // `MM-DD HH:MM:SS [file.py:123] `
      const auto rest = line.substr(level.size());
      const auto close = rest.find("] ");
      if (rest.size() > 15 && util::is_digit(rest[0]) && rest[2] == '-' && rest[5] == ' ' && close != std::string_view::npos &&
          close < 64 && rest.substr(0, close).find(" [") != std::string_view::npos)
        line.remove_prefix(level.size() + close + 2);
      break;
    }
  }
  return line;
}

// Recognises every pattern on one line at a time, keeping the little state that multi-line
// messages need (a traceback's last line, terminate's what(), export's suggested fixes).
class Scanner {
 public:
  explicit Scanner(const std::string& display) : m_display(display) {}

  void scan(std::string_view line, int number) {
    if (line.ends_with('\r')) line.remove_suffix(1);
    // Events quote the line as the log holds it; the recognisers read it without the timestamp or
    // level a CI system or logger put in front of every line.
    m_raw = line;
    line = strip_log_prefix(line);
    const std::uint64_t found = anchors().find_all(line);
    m_line = line;
    m_number = number;
    m_line_had_event = false;

    bool exception_line = false;
    const bool message_line = m_detail_event >= 0 && continue_detail(found);
    if (m_in_traceback) exception_line = continue_traceback();
    if (m_pending_terminate) finish_terminate();
    if (m_in_suggested_fixes) continue_suggested_fixes();
    if (m_diagnostic_event >= 0 || m_pending_bare) continue_diagnostic();
    if (m_statement_event >= 0) continue_statement();

    if (found & a_input_handles) input_check();
    if (found & a_mixed_device) mixed_device();
    if (found & a_same_device) same_device();
    if (found & a_host_pointer) {
      // at::getDeviceFromPtr, called by from_blob / TensorMaker::make_tensor for a CUDA tensor.
      auto e = event(LogEventKind::pointer_on_host);
      e.problem = "blob on host";
      add(std::move(e), e.problem);
    }
    if (found & a_test_result) test_result();
    if (found & a_tagged_cuda) tagged_cuda_on_host();
    if (found & a_out_tensor) out_tensor();
    if (found & (a_printed_size | a_resized)) observed_shape(found);
    if (found & a_api_call) api_call_failed();
    if (found & a_assertion) assertion();
    if (found & a_index_check) index_check();
    if (found & a_exception_from) exception_from();
    if (found & (a_cuda_error | a_cuda_driver | a_cuda_enum | a_cublas | a_triton_error)) cuda_error(found);
    if (found & a_terminate) terminate();
    if (found & (a_segfault | a_sigsegv | a_aborted | a_fatal_abort | a_bus_error)) crash_signal(found);
    if (found & a_aot_compile) deprecated("torch._export.aot_compile");
    if (found & a_aot_load) deprecated("torch._export.aot_load");
    if (found & a_export_frame) deprecated_frame();
    if (found & a_constraints) constraints_violated();
    if (found & a_marked_dynamic) marked_dynamic();
    if (found & a_not_all_values) not_all_values();
    if (found & a_suggested_fixes) m_in_suggested_fixes = true;
    if ((found & a_data_dependent) && !exception_line && !m_saw_data_dependent) data_dependent();
    // Failures around the runtime: the build, the loader, the AOTI runtime's own error lines.
    if (found & (a_error_word | a_fatal_word | a_undefined_reference | a_cannot_find_library)) compiler_line();
    if ((found & a_included_from) || (m_include_line == m_number - 1 && util::trim(line).starts_with("from "))) include_line();
    command_line(found);
    if (m_version_event >= 0) version_required_by(found);
    if (found & k_load_anchors) load_line();
    if (found & (a_error_prefix | a_shim_exception | a_unknown_exception | a_raised_from | a_device_guard)) runtime_line(found);
    if ((found & a_while_executing) && !message_line && !exception_line) while_executing();
    if (found & a_syscall_result) syscall_line();
    if (found & (a_draft_data_dependent | a_draft_missing_fake)) draft_export_failure(found);
    if ((found & a_draft_frame) && m_draft_event >= 0) draft_export_frame();
    else if (m_draft_event >= 0) draft_export_code();
    native_frame_line(found);
    remember_line();
    const bool in_traceback_or_message = m_in_traceback || exception_line || message_line;
    if (!in_traceback_or_message && (found & a_python_frame)) start_traceback_at_frame();
    else if (!in_traceback_or_message) bare_exception();
    if (found & a_traceback) {
      m_in_traceback = true;
      m_traceback_prefix = line.substr(0, line.find("Traceback (most recent call last):"));
      m_frames.clear();
      m_detail_event = -1;
    }
  }

  // Keeps the last few lines as the log holds them (for messages that name the line above).
  void remember_line() {
    m_recent[m_recent_next] = {m_number, std::string(m_raw.substr(0, k_max_text))};
    m_recent_next = (m_recent_next + 1) % m_recent.size();
  }

  LogScan finish(std::uint64_t lines) {
    if (m_pending_terminate) commit_terminate();
    if (m_last_exception >= 0) m_events[static_cast<std::size_t>(m_last_exception)].final = true;
    LogScan scan;
    scan.events = std::move(m_events);
    scan.lines = lines;
    if (m_dropped > 0)
      scan.diagnostics.push_back(
          {m_display, fmt::format("more than {} distinct log events; {} more were not kept", k_max_events, m_dropped)});
    return scan;
  }

 private:
  LogEvent event(LogEventKind kind) const {
    LogEvent e;
    e.kind = kind;
    e.where.artifact = m_display;
    e.where.line = m_number;
    return e;
  }

  // Identical events (same kind and key) fold into the first one seen, which keeps its line and
  // text (taken only then: a log may repeat one error millions of times).
  LogEvent* add(LogEvent e, std::string_view key) {
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
    if (e.text.empty()) e.text = util::clean_text(util::trim(m_raw), k_max_text);
    m_events.push_back(std::move(e));
    const int index = static_cast<int>(m_events.size() - 1);
    switch (m_events.back().kind) {
      case LogEventKind::segfault: m_last_crash = index; [[fallthrough]];
      case LogEventKind::python_exception:
      case LogEventKind::runtime_error:
      case LogEventKind::terminate:
      case LogEventKind::cuda_error:
      case LogEventKind::load_error:
      case LogEventKind::triton_assert:  // a C++ kernel's check is a c10::Error: its frames follow it
      case LogEventKind::api_call_failed: m_last_error = index; break;
      default: break;
    }
    return &m_events.back();
  }

  // Whether `e` is the event add() just appended (not one it folded into an earlier one).
  bool appended(const LogEvent* e) const { return e && e == &m_events.back() && e->repeats == 1; }
  int index_of(const LogEvent* e) const { return static_cast<int>(e - m_events.data()); }

  // Error: input_handles[0]: dim value is too large at 0, expected to be <= 1024, but got: 4096
  void input_check() {
    const auto at = m_line.find("input_handles[");
    auto rest = m_line.substr(at + 14);
    const auto index = util::digits_at(rest, 0);
    if (index.empty() || !rest.substr(index.size()).starts_with("]: ")) return;
    rest.remove_prefix(index.size() + 3);
    const auto expected_at = rest.find("expected");
    const auto got_at = rest.find("but got:");
    if (expected_at == std::string_view::npos || got_at == std::string_view::npos || got_at < expected_at) return;

    auto e = event(LogEventKind::input_check_error);
    e.input_index = util::to_int(index).value_or(-1);
    auto problem = rest.substr(0, std::min(rest.find(", "), expected_at));
    if (const auto dim_at = problem.find(" at "); dim_at != std::string_view::npos) {
      e.dim = util::to_int(util::digits_at(problem, dim_at + 4)).value_or(-1);
      problem = problem.substr(0, dim_at);
    }
    e.problem = util::clean_text(util::trim(problem), k_max_field);
    // "expected: 16", "expected to be <= 1024", "expected it to be >= 2": the value is the last word.
    auto expected = util::trim(rest.substr(expected_at + 8, got_at - expected_at - 8));
    if (expected.ends_with(',')) expected.remove_suffix(1);
    expected = util::last_word(expected);
    e.expected = util::clean_text(expected, k_max_field);
    // torch 2.11 prints the runtime code and then the codegen'd label, which itself starts with the
    // code: `expected: 11(cuda)` is code 1 followed by "1(cuda)". `expected` stays as printed;
    // `value` gets the meaning from the label.
    e.value = util::clean_text(label_of(expected), k_max_field);
    e.actual = util::clean_text(util::first_word(util::trim(rest.substr(got_at + 8))), k_max_field);
    const auto key = fmt::format("{}|{}|{}|{}|{}", e.input_index, e.problem, e.dim, e.expected, e.actual);
    add(std::move(e), key);
  }

  // Error: Mixed-device constants are only supported when ... Constant 'linear_weight' was ...
  void mixed_device() {
    auto e = event(LogEventKind::mixed_device_constants);
    e.subject = util::clean_text(util::between(m_line, "Constant '", "'"), k_max_field);
    const auto key = e.subject;
    add(std::move(e), key);
  }

  // "... but found at least two devices, cuda:0 and cpu!" or, in older torch,
  // "... but got index is on cpu, different from other tensors on cuda:0 (when checking ...)".
  void same_device() {
    auto e = event(LogEventKind::tensors_on_different_devices);
    if (auto pair = util::between(m_line, "at least two devices, ", "!"); !pair.empty()) {
      e.value = util::clean_text(pair, k_max_field);
    } else {
      const auto on = util::between(m_line, " is on ", ",");
      const auto other = util::first_word(util::after(m_line, "different from other tensors on "));
      if (!on.empty() && !other.empty()) e.value = util::clean_text(fmt::format("{} and {}", on, other), k_max_field);
    }
    const auto key = e.value;
    add(std::move(e), key);
  }

  // Expected out tensor to have device cuda:0, but got cpu instead
  // What the program saw of its results: a printed `torch.Size([4096, 8])`, or ATen's warning
  // (aten/src/ATen/native/Resize.cpp) "An output with one or more elements was resized since it had
  // shape [1024, 8], which does not match the required output shape [4096, 8]". Both show the sizes
  // a run really used, to hold against the package's compiled contract.
  void observed_shape(std::uint64_t found) {
    auto e = event(LogEventKind::observed_shape);
    if (found & a_resized) {
      e.problem = "resized";
      e.expected = util::clean_text(util::between(m_line, "it had shape [", "]"), k_max_field);
      e.value = util::clean_text(util::between(m_line, "required output shape [", "]"), k_max_field);
    } else {
      e.problem = "printed";
      e.value = util::clean_text(util::between(m_line, "torch.Size([", "])"), k_max_field);
    }
    if (e.value.empty()) return;
    const auto key = e.problem + "|" + e.value;
    add(std::move(e), key);
  }

  void out_tensor() {
    auto e = event(LogEventKind::out_tensor_device);
    e.expected = util::clean_text(util::between(m_line, "Expected out tensor to have device ", ","), k_max_field);
    e.actual = util::clean_text(util::first_word(util::after(m_line, "but got ")), k_max_field);
    e.value = e.actual;
    const auto key = e.expected + "|" + e.actual;
    add(std::move(e), key);
  }

  // run_func_( ... ) API call failed at /pytorch/.../model_container_runner.cpp, line 144
  void api_call_failed() {
    const auto at = m_line.find("API call failed at ");
    auto call = util::trim(m_line.substr(0, at));
    // Drop whatever the program printed before the call ("cpu error: RuntimeError ", terminate's
    // "what():  "): the call starts at the identifier before its first parenthesis.
    if (call.starts_with("what():")) call = util::trim(call.substr(7));
    if (const auto paren = call.find('('); paren != std::string_view::npos) {
      auto start = paren;
      while (start > 0 && (util::is_identifier_char(call[start - 1]) || call[start - 1] == ':' || call[start - 1] == '.'))
        --start;
      call.remove_prefix(start);
    }
    const auto location = m_line.substr(at + 19);
    const auto comma = location.rfind(", line ");
    if (comma == std::string_view::npos) return;
    auto e = event(LogEventKind::api_call_failed);
    e.subject = util::clean_text(call, k_max_field);
    e.source_file = util::clean_text(location.substr(0, comma), k_max_field);
    const auto line = util::digits_at(location, comma + 7);
    e.source_line = util::to_int(line).value_or(0);
    e.value = std::string(line);
    const auto key = fmt::format("{}|{}|{}", e.subject, e.source_file, e.source_line);
    add(std::move(e), key);
  }

  // Device asserts: `<file>:<line>: <function>: block: [..], thread: [..] Assertion `<msg>` failed.`
  // from Triton kernels and from ATen's CUDA kernels (whose message is a C++ condition).
  void assertion() {
    const auto at = m_line.find("Assertion ");
    if (at + 11 > m_line.size() || (m_line[at + 10] != '`' && m_line[at + 10] != '\'')) return;
    const auto begin = at + 11;
    // glibc closes a backtick with a quote, CUDA with a backtick: take whichever comes first.
    const auto close = std::min(m_line.find("` failed", begin), m_line.find("' failed", begin));
    if (close == std::string_view::npos) return;
    const auto message = m_line.substr(begin, close - begin);
    const bool out_of_bounds = message.find("index out of bounds") != std::string_view::npos;
    const auto prefix = m_line.substr(0, at);
    const bool on_device = prefix.find("block: [") != std::string_view::npos ||
                           prefix.find("thread: [") != std::string_view::npos;
    // A failed host assert aborts the process, which the crash events already report.
    if (!out_of_bounds && !on_device) return;

    auto e = event(out_of_bounds ? LogEventKind::triton_assert : LogEventKind::cuda_error);
    e.subject = util::clean_text(message, k_max_field);
    if (!out_of_bounds) e.value = "device-side assert triggered";
    find_source_location(prefix, e.source_file, e.source_line);
    // The value is part of the key so that these never fold into a generic CUDA error event.
    const auto key = fmt::format("{}|{}|{}|{}", e.value, e.subject, e.source_file, e.source_line);
    add(std::move(e), key);
  }

  // A C++ kernel's index check that failed (cpp.py's `indirect_assert`, raised by AOTI_TORCH_CHECK /
  // TORCH_CHECK as a c10::Error). AOTI's runtime prints `Error: <what()>`, a C++ runner's terminate
  // `what():  <msg>`, a torch.compile'd kernel `RuntimeError: kernel, <file>.cpp:<line>, <msg>`.
  // Device asserts quote the same message inside `Assertion `...``: assertion() reads those.
  void index_check() {
    const auto at = m_line.find(torch::k_index_assert_prefix);
    if (at > 0 && (m_line[at - 1] == '`' || m_line[at - 1] == '\'')) return;
    const auto message = util::trim(m_line.substr(at));
    if (!torch::parse_index_assert(message)) return;
    auto e = event(LogEventKind::triton_assert);
    e.subject = util::clean_text(message, k_max_field);
    // `kernel, /tmp/.../x.main.cpp:25, ` just before the message: the kernel file and line.
    auto prefix = m_line.substr(0, at);
    if (prefix.ends_with(", ")) {
      prefix.remove_suffix(2);
      const auto colon = prefix.rfind(':');
      const auto digits = colon == std::string_view::npos ? std::string_view{} : util::digits_at(prefix, colon + 1);
      if (!digits.empty() && colon + 1 + digits.size() == prefix.size()) {
        const auto start = prefix.find_last_of(" \t", colon);
        const auto path = prefix.substr(start == std::string_view::npos ? 0 : start + 1,
                                        colon - (start == std::string_view::npos ? 0 : start + 1));
        e.source_file = util::clean_text(path, k_max_field);
        e.source_line = util::to_int(digits).value_or(0);
      }
    }
    const auto key = fmt::format("cpp|{}|{}|{}", e.subject, e.source_file, e.source_line);
    if (LogEvent* added = add(std::move(e), key)) {
      m_index_check = static_cast<std::size_t>(added - m_events.data());
      m_index_check_line = m_number;
    }
  }

  // `Exception raised from cpp_fused_embedding_mul_0 at /tmp/.../<hash>.kernel.cpp:26 (most recent
  // call first):` right after a C++ index check's message names its kernel and the check's line.
  void exception_from() {
    if (m_index_check_line == 0 || m_number != m_index_check_line + 1 || m_index_check >= m_events.size()) return;
    LogEvent& e = m_events[m_index_check];
    m_index_check_line = 0;
    if (!e.kernel.empty()) return;
    const auto rest = util::after(m_line, "Exception raised from ");
    const auto function = rest.substr(0, rest.find(' '));
    if (function.empty() || !std::all_of(function.begin(), function.end(), util::is_identifier_char)) return;
    e.kernel = std::string(function);
    auto location = util::after(rest, " at ");
    location = location.substr(0, location.find(" ("));
    const auto colon = location.rfind(':');
    if (colon == std::string_view::npos) return;
    const auto digits = util::digits_at(location, colon + 1);
    if (digits.empty() || !e.source_file.empty()) return;
    e.source_file = util::clean_text(location.substr(0, colon), k_max_field);
    e.source_line = util::to_int(digits).value_or(0);
  }

  // The error text is the value (so the same error seen as `CUDA error: X` and as its enum name
  // folds); the subject says which spelling was seen first.
  void cuda_error(std::uint64_t found) {
    auto e = event(LogEventKind::cuda_error);
    std::string_view value;
    if (found & a_cuda_error) {
      e.subject = "CUDA error";
      value = util::after(m_line, "CUDA error: ");
    } else if (found & a_cuda_driver) {
      e.subject = "CUDA driver error";
      value = util::after(m_line, "CUDA driver error: ");
    } else if (found & a_triton_error) {
      e.subject = "Triton Error [CUDA]";
      value = util::after(m_line, "Triton Error [CUDA]: ");
    } else if (found & a_cublas) {
      value = util::identifier_at(m_line, m_line.find("CUBLAS_STATUS_"));
      e.subject = std::string(value);
    } else {
      const auto name = util::identifier_at(m_line, m_line.find("cudaError"));
      if (name == "cudaError" || name.starts_with("cudaError_")) return;  // the type, "cudaError_t"
      e.subject = std::string(name);
      value = cuda_enum_message(name);
    }
    value = util::trim(value);
    if (value.empty()) return;
    e.value = util::clean_text(value, k_max_field);
    const auto key = e.value;
    add(std::move(e), key);
  }

  // terminate called after throwing an instance of 'std::runtime_error'
  //   what():  CUDA error: device-side assert triggered
  void terminate() {
    auto e = event(LogEventKind::terminate);
    e.subject = util::clean_text(util::between(m_line, "an instance of '", "'"), k_max_field);
    e.text = util::clean_text(util::trim(m_raw), k_max_text);  // added only once the next line is read
    m_pending_terminate = std::move(e);
  }

  void finish_terminate() {
    if (const auto what = util::trim(m_line); what.starts_with("what():"))
      m_pending_terminate->value = util::clean_text(util::trim(what.substr(7)), k_max_field);
    commit_terminate();
  }

  void commit_terminate() {
    auto e = std::move(*m_pending_terminate);
    m_pending_terminate.reset();
    const auto key = e.subject + "|" + e.value;
    add(std::move(e), key);
  }

  // One event per signal: a crash is often reported twice (Python's faulthandler, then the shell).
  void crash_signal(std::uint64_t found) {
    auto e = event(LogEventKind::segfault);
    if (found & (a_segfault | a_sigsegv)) {
      e.subject = "SIGSEGV";
      if (m_line.find("Fatal Python error: Segmentation fault") != std::string_view::npos)
        e.value = "Fatal Python error: Segmentation fault";
      else if (m_line.find("Segmentation fault (core dumped)") != std::string_view::npos)
        e.value = "Segmentation fault (core dumped)";
      else
        e.value = (found & a_segfault) ? "Segmentation fault" : "SIGSEGV";
    } else if (found & (a_aborted | a_fatal_abort)) {
      e.subject = "SIGABRT";
      e.value = (found & a_aborted) ? "Aborted (core dumped)" : "Fatal Python error: Aborted";
    } else {
      // "Bus error" alone is too common a phrase; only the shell's report of the signal counts.
      if (m_line.find("Bus error (core dumped)") == std::string_view::npos &&
          util::trim(m_line) != "Bus error")
        return;
      e.subject = "SIGBUS";
      e.value = "Bus error";
    }
    const auto key = e.subject;
    add(std::move(e), key);
  }

  void deprecated(std::string_view api) {
    auto e = event(LogEventKind::deprecated_api);
    e.subject = std::string(api);
    add(std::move(e), api);
  }

  // A traceback frame inside the deprecated functions, even when the caller's code line is not shown.
  void deprecated_frame() {
    if (m_line.ends_with(", in aot_compile")) deprecated("torch._export.aot_compile");
    if (m_line.ends_with(", in aot_load")) deprecated("torch._export.aot_load");
  }

  // Export's messages about one symbol come on several lines; they merge into one event per symbol.
  LogEvent* specialized(std::string_view symbol) {
    const auto name = util::clean_text(symbol, k_max_field);
    if (auto it = m_specialized.find(name); it != m_specialized.end()) return &m_events[it->second];
    auto e = event(LogEventKind::export_specialized);
    e.subject = name;
    LogEvent* added = add(std::move(e), name);
    if (added) m_specialized.emplace(name, static_cast<std::size_t>(added - m_events.data()));
    return added;
  }

  void set_constant(LogEvent* e, std::string_view value) {
    if (!e || value.empty()) return;
    e->value = util::clean_text(value, k_max_field);
    e->problem = "specialized to a constant";
  }

  // Constraints violated (batch, seq)! For more information, run with TORCH_LOGS="+dynamic".
  void constraints_violated() {
    auto symbols = util::between(m_line, "Constraints violated (", ")");
    while (!symbols.empty()) {
      const auto comma = symbols.find(',');
      if (const auto symbol = util::trim(symbols.substr(0, comma)); !symbol.empty()) specialized(symbol);
      symbols = comma == std::string_view::npos ? std::string_view{} : symbols.substr(comma + 1);
    }
  }

  // You marked batch as dynamic but your code specialized it to be a constant (8).
  void marked_dynamic() {
    const auto symbol = util::between(m_line, "You marked ", " as dynamic");
    if (symbol.empty()) return;
    auto* e = specialized(symbol);
    set_constant(e, util::digits_at(util::after(m_line, "specialized it to be a constant ("), 0));
  }

  // Not all values of batch = L['x'].size()[0] in the specified range ... are valid because batch
  // was inferred to be a constant (8).   /   ... satisfy the generated guard Ne(...).
  void not_all_values() {
    const auto symbol = util::between(m_line, "Not all values of ", " = ");
    if (symbol.empty()) return;
    auto* e = specialized(symbol);
    if (!e) return;
    if (const auto constant = util::digits_at(util::after(m_line, "inferred to be a constant ("), 0); !constant.empty()) {
      set_constant(e, constant);
    } else if (auto guard = util::trim(util::after(m_line, "satisfy the generated guard ")); !guard.empty()) {
      if (guard.ends_with('.')) guard.remove_suffix(1);
      if (e->problem.empty()) e->problem = util::clean_text(fmt::format("violates the guard {}", guard), k_max_field);
    }
  }

  // Suggested fixes:
  //   batch = 8
  void continue_suggested_fixes() {
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
  void data_dependent() {
    auto e = event(LogEventKind::python_exception);
    const auto at = m_line.find("GuardOnDataDependentSymNode");
    e.subject = at != std::string_view::npos ? "GuardOnDataDependentSymNode" : "data-dependent expression";
    e.problem = "data-dependent guard";
    auto message = m_line.find("Could not ");
    e.value = util::clean_text(util::trim(m_line.substr(message == std::string_view::npos ? 0 : message)), k_max_field);
    m_saw_data_dependent = true;
    const auto key = e.subject + "|" + e.value;
    add(std::move(e), key);
  }

  // Frames are indented; the first line that is not is `Type: message`. Returns whether this line
  // was that exception line.
  bool continue_traceback() {
    auto body = m_line;
    if (!m_traceback_prefix.empty() && body.starts_with(m_traceback_prefix)) body.remove_prefix(m_traceback_prefix.size());
    if (const auto frame = python_frame(body)) {
      push_frame(m_frames, *frame);
      return false;
    }
    if (body.empty() || body[0] == ' ' || body[0] == '\t') {
      set_code(m_frames, body);
      return false;
    }
    m_in_traceback = false;
    const auto type = exception_type_at_start(body);
    if (type.empty()) {
      m_frames.clear();
      return false;
    }
    const std::size_t end = type.size();
    auto e = event(LogEventKind::python_exception);
    e.subject = util::clean_text(type, k_max_field);
    e.value = util::clean_text(util::trim(body.substr(std::min(end + 1, body.size()))), k_max_field);
    classify_exception(e, body);
    e.frames = std::move(m_frames);
    m_frames.clear();
    e.user_frame = user_frame_of(e.frames);
    const auto key = e.subject + "|" + e.value;
    exception_added(add(std::move(e), key));
    return true;
  }

  // What an exception message states that other events also report: checks use it to route.
  void classify_exception(LogEvent& e, std::string_view body) {
    if (body.find("data-dependent expression") != std::string_view::npos) {
      e.problem = "data-dependent guard";
      m_saw_data_dependent = true;
    } else if (body.find("Constraints violated (") != std::string_view::npos) {
      e.problem = "constraint violation";
    } else if (body.find("There was no fake impl registered for ") != std::string_view::npos ||
               body.find(": attempted to run this operator with Meta tensors") != std::string_view::npos) {
      // torch.library.custom_op's fake_impl, and the Meta fallback for an op without a Meta kernel.
      e.problem = "missing fake";
    } else if (load_failure(body)) {
      e.problem = "load failure";
    }
  }

  void exception_added(const LogEvent* e) {
    if (!e) return;
    m_last_exception = index_of(e);
    if (appended(e)) m_detail_event = index_of(e), m_detail_blank = 0;
  }

  void push_frame(std::vector<model::LogFrame>& frames, const PythonFrame& frame) {
    if (frames.size() >= k_max_frames) frames.erase(frames.begin());
    frames.push_back({util::clean_text(frame.file, k_max_field), frame.line, util::clean_text(frame.function, k_max_field), "", m_number,
                      false, util::clean_text(util::trim(m_raw), k_max_text)});
  }

  // The code line under a frame (`    gm = _export_to_torch_ir(`), not the caret line under it.
  void set_code(std::vector<model::LogFrame>& frames, std::string_view body) {
    const auto code = util::trim(body);
    if (frames.empty() || code.empty() || code.find_first_not_of("^~ ") == std::string_view::npos) return;
    auto& frame = frames.back();
    if (frame.native || !frame.code.empty() || frame.log_line != m_number - 1) return;
    frame.code = util::clean_text(code, k_max_field);
  }

  static int user_frame_of(const std::vector<model::LogFrame>& frames) {
    for (std::size_t i = frames.size(); i-- > 0;)
      if (!frames[i].native && !is_framework_file(frames[i].file)) return static_cast<int>(i);
    return -1;
  }

  // A log that starts inside a traceback (a paste that lost its first lines): its first frame starts it.
  void start_traceback_at_frame() {
    const auto frame = python_frame(m_line);
    if (!frame) return;
    const auto indent = m_line.find("File \"");
    // Python indents frames by two spaces under `Traceback`; whatever is before that is a prefix.
    m_traceback_prefix = std::string(m_line.substr(0, indent >= 2 ? indent - 2 : 0));
    m_in_traceback = true;
    m_frames.clear();
    m_detail_event = -1;
    push_frame(m_frames, *frame);
  }

  // The lines after an exception line that continue its message, until the next traceback, the next
  // log record, or three blank lines. Returns whether this line was one of them.
  bool continue_detail(std::uint64_t found) {
    auto& e = m_events[static_cast<std::size_t>(m_detail_event)];
    const auto body = m_line;
    const bool stop = (found & a_traceback) || body.starts_with("The above exception was the direct cause") ||
                      body.starts_with("During handling of the above exception") || is_log_record_start(body) ||
                      e.detail.size() >= k_max_detail_lines || static_cast<int>(e.detail.size()) != m_number - e.where.line - 1;
    if (stop) {
      end_detail(e);
      return false;
    }
    if (util::trim(body).empty()) {
      if (++m_detail_blank >= 3) {
        end_detail(e);
        return false;
      }
    } else {
      m_detail_blank = 0;
    }
    e.detail.push_back(util::clean_text(m_raw, k_max_text));
    // Dynamo's `from user code:` frames: the model line that failed to trace.
    if (const auto frame = python_frame(body)) {
      push_frame(e.frames, *frame);
      e.user_frame = user_frame_of(e.frames);
    } else {
      set_code(e.frames, body);
    }
    return true;
  }

  // The message ends: blank lines before whatever stopped it are not part of it.
  void end_detail(LogEvent& e) {
    while (!e.detail.empty() && util::trim(e.detail.back()).empty()) e.detail.pop_back();
    m_detail_event = -1;
  }

  // `V0815 19:38:37.056000 8614645568 torch/...] ...` (torch's logging), `[E1119 16:44:43.826 ...]` (glog).
  static bool is_log_record_start(std::string_view line) {
    if (line.starts_with('[')) line.remove_prefix(1);
    if (line.size() < 6 || std::string_view("DIWEFV").find(line[0]) == std::string_view::npos) return false;
    return util::digits_at(line, 1).size() == 4 && line[5] == ' ';
  }

  // `RuntimeError: method->execute() failed with error 0x12` or `ImportError: ...` outside any
  // traceback (a paste of the last line only), or an exception a program printed itself
  // (`aot_compile failed: InductorError: ...`).
  void bare_exception() {
    const auto line = util::trim(m_line);
    const auto is_error_type = [](std::string_view type) {
      const auto last = type.substr(type.rfind('.') == std::string_view::npos ? 0 : type.rfind('.') + 1);
      return (last.ends_with("Error") && last != "Error") || (last.ends_with("Exception") && last != "Exception");
    };
    std::size_t start = 0;
    auto type = exception_type_at_start(line);
    if (type.empty() || !is_error_type(type)) {
      type = {};
      // After the program's own words: `<words>: <Type>: message`, the first two colons only.
      for (std::size_t colon = line.find(": "), n = 0; colon != std::string_view::npos && n < 2; colon = line.find(": ", colon + 2), ++n) {
        const auto candidate = exception_type_at_start(line.substr(colon + 2));
        if (!candidate.empty() && is_error_type(candidate) && line.size() > colon + 2 + candidate.size()) {
          type = candidate, start = colon + 2;
          break;
        }
      }
    }
    if (type.empty() || line.size() <= start + type.size() || line[start + type.size()] != ':') return;
    // A line that already said something more specific (`ImportError: x.so: undefined symbol: f`).
    if (m_line_had_event) return;
    auto e = event(LogEventKind::python_exception);
    e.subject = util::clean_text(type, k_max_field);
    const auto body = line.substr(start);
    e.value = util::clean_text(util::trim(body.substr(type.size() + 1)), k_max_field);
    classify_exception(e, body);
    const auto key = e.subject + "|" + e.value;
    const LogEvent* added = add(std::move(e), key);
    if (!added) return;
    m_last_exception = index_of(added);
    if (start == 0 && appended(added)) m_detail_event = index_of(added), m_detail_blank = 0;
  }

  // ExecuTorch's CUDA backend: `Tensor 0 has device_type=CUDA but its data pointer 0x... is not backed
  // by CUDA device memory (cudaPointerGetAttributes err=0, cudaMemoryType=0).` — a tensor that says
  // CUDA whose memory is the host's, often broken over lines; the sentence's further lines are kept.
  void tagged_cuda_on_host() {
    auto e = event(LogEventKind::pointer_on_host);
    e.problem = "tensor on host";
    const LogEvent* added = add(std::move(e), "tensor on host");
    if (!appended(added) || util::trim(m_line).ends_with(".")) return;
    m_statement_event = index_of(added);
  }

  void continue_statement() {
    auto& e = m_events[static_cast<std::size_t>(m_statement_event)];
    if (static_cast<int>(e.detail.size()) != m_number - e.where.line - 1 || e.detail.size() >= 3 || util::trim(m_line).empty()) {
      m_statement_event = -1;
      return;
    }
    e.detail.push_back(util::clean_text(m_raw, k_max_text));
    if (util::trim(m_line).ends_with(".")) m_statement_event = -1;
  }

  // unittest's summary of a failed test: `ERROR: test_x (module.Class.test_x)` (`FAIL:` for a failed
  // assertion), the test whose run the errors around it belong to.
  void test_result() {
    const auto line = util::trim(m_line);
    std::string_view rest;
    if (line.starts_with("ERROR: test")) rest = line.substr(7);
    else if (line.starts_with("FAIL: test")) rest = line.substr(6);
    else return;
    const auto name = util::identifier_at(rest, 0);
    if (name.empty() || !rest.substr(name.size()).starts_with(" (") || !rest.ends_with(")")) return;
    auto e = event(LogEventKind::test_failure);
    e.subject = util::clean_text(name, k_max_field);
    e.value = util::clean_text(rest.substr(name.size() + 2, rest.size() - name.size() - 3), k_max_field);
    e.problem = line.starts_with("ERROR") ? "error" : "failure";
    const auto key = e.subject;
    add(std::move(e), key);
  }

  // ---- the build -------------------------------------------------------------------------------

  void compiler_line() {
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
      e.text = util::clean_text(util::trim(m_raw), k_max_text);
      m_pending_bare = std::move(e);
      m_diagnostic_event = -1;
      return;
    }
    commit_diagnostic(std::move(e));
  }

  void commit_diagnostic(LogEvent e) {
    m_saw_compiler = true;
    const auto key = fmt::format("{}|{}|{}|{}", e.problem, e.source_file, e.source_line, e.value);
    const int line = e.where.line;
    const LogEvent* added = add(std::move(e), key);
    m_diagnostic_event = appended(added) ? index_of(added) : -1;
    m_diagnostic_line = line;
  }

  // The lines under a diagnostic: its message where a paste broke it, the source excerpt
  // (`  605 |     int64_t int_array_0[] = {buf0};`) and the caret line.
  void continue_diagnostic() {
    if (m_pending_bare) {
      if (m_number - m_pending_bare->where.line > k_max_diagnostic_tail) {
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
    const bool continued = e.detail.empty() && e.source_file.empty() && !body.empty() && !compiler_diagnostic(m_line);
    const bool after_excerpt = !e.detail.empty() && is_compiler_excerpt(e.detail.back()) && !body.empty() &&
                               !compiler_diagnostic(m_line);  // an excerpt line that a paste broke
    if (m_number - m_diagnostic_line > k_max_diagnostic_tail || !(excerpt || continued || after_excerpt) ||
        static_cast<int>(e.detail.size()) != m_number - e.where.line - 1) {
      m_diagnostic_event = -1;
      return;
    }
    e.detail.push_back(util::clean_text(m_raw, k_max_text));
  }

  void include_line() {
    const auto file = include_chain_file(m_line);
    if (file.empty()) return;
    m_include_root = util::clean_text(file, k_max_field);
    m_include_line = m_number;
  }

  void command_line(std::uint64_t found) {
    if (!(found & a_called_process)) {
      // Most lines are not commands: only a short first word can name a compiler.
      const auto first = util::first_word(m_line);
      if (first.empty() || first.size() > 120 || (first != "+" && first != "$" && first.find("cc") == std::string_view::npos &&
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

  // ---- loading ---------------------------------------------------------------------------------

  void load_line() {
    const auto failure = load_failure(m_line);
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
  void version_required_by(std::uint64_t found) {
    auto& e = m_events[static_cast<std::size_t>(m_version_event)];
    m_version_event = -1;
    if (!(found & a_required_by) || e.where.line != m_number - 1) return;
    e.source_file = util::clean_text(util::between(m_line, "(required by ", ")"), k_max_field);
    e.detail.push_back(util::clean_text(m_raw, k_max_text));
  }

  // strace: `openat(AT_FDCWD, "/m/model.so", O_RDONLY) = 3` remembers what descriptor 3 is;
  // `mmap(NULL, 6144375816, PROT_READ|PROT_WRITE, MAP_PRIVATE, 3, 0xd8000) = -1 EINVAL (...)` on a
  // shared object's descriptor is its loading failing.
  void syscall_line() {
    const auto line = util::trim(m_line);
    const auto name = util::identifier_at(line, 0);
    if (name.empty() || line.size() <= name.size() || line[name.size()] != '(') return;
    const auto result_at = line.rfind(") = ");
    if (result_at == std::string_view::npos) return;
    const auto result = line.substr(result_at + 4);
    if (name == "openat" || name == "open") {
      const auto path = util::between(line, "\"", "\"");
      const auto fd = util::digits_at(result, 0);
      if (!path.empty() && !fd.empty() && m_descriptors.size() < 4096) m_descriptors[std::string(fd)] = util::clean_text(path, k_max_field);
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

  // torch.fx's Interpreter adds `While executing %add_ : [...] = call_function[target=...](...)` under
  // an exception raised while it ran a graph node. Without the exception's own line (a paste that
  // kept only its message), the non-blank line above is that message.
  void while_executing() {
    if (!util::trim(m_line).starts_with("While executing %")) return;
    if (m_last_exception >= 0 && m_number - m_events[static_cast<std::size_t>(m_last_exception)].where.line <= 3) return;
    int message_line = 0;
    std::string message;
    for (const auto& [number, text] : m_recent)
      if (number < m_number && number >= m_number - 3 && !util::trim(text).empty()) message_line = number, message = text;
    if (message_line == 0) return;
    auto e = event(LogEventKind::python_exception);
    e.where.line = message_line;
    e.text = util::clean_text(util::trim(message), k_max_text);
    e.value = util::clean_text(util::trim(strip_log_prefix(message)), k_max_field);
    for (const auto& [number, text] : m_recent)
      if (number > message_line && number < m_number) e.detail.push_back(util::clean_text(text, k_max_text));
    e.detail.push_back(util::clean_text(m_raw, k_max_text));
    const auto key = "|" + e.value;
    exception_added(add(std::move(e), key));
  }

  // ---- torch.export.draft_export's report -------------------------------------------------------

  // `When exporting, we were unable to evaluate the value of `Eq(u0, 1)`.` (a data-dependent error)
  // and `torch.ops.ns.op.default is missing a fake kernel implementation.`; the report's
  // `File <path>, lineno <n>, in <f>` lines after them are their user stack.
  void draft_export_failure(std::uint64_t found) {
    auto e = event(LogEventKind::python_exception);
    e.subject = "draft_export";
    if (found & a_draft_data_dependent) {
      e.problem = "data-dependent guard";
      e.value = util::clean_text(util::between(m_line, "unable to evaluate the value of `", "`"), k_max_field);
    } else {
      e.problem = "missing fake";
      e.value = util::clean_text(util::first_word(util::trim(m_line)), k_max_field);
    }
    const auto key = e.problem + "|" + e.value;
    const LogEvent* added = add(std::move(e), key);
    m_draft_event = appended(added) ? index_of(added) : -1;
  }

  void draft_export_frame() {
    auto& e = m_events[static_cast<std::size_t>(m_draft_event)];
    const auto frame = python_frame(m_line);
    if (!frame || m_number - e.where.line > 16) return;
    push_frame(e.frames, *frame);
    e.user_frame = user_frame_of(e.frames);
  }

  // The line under the report's last frame is its code; anything else ends the report's item.
  void draft_export_code() {
    auto& e = m_events[static_cast<std::size_t>(m_draft_event)];
    if (e.frames.empty()) {
      if (m_number - e.where.line > 4) m_draft_event = -1;
      return;
    }
    set_code(e.frames, m_line);
    m_draft_event = -1;
  }

  // ---- the AOTI runtime's own error lines ------------------------------------------------------

  void runtime_line(std::uint64_t found) {
    const auto line = util::trim(m_line);
    auto e = event(LogEventKind::runtime_error);
    if ((found & a_raised_from) && line.starts_with("Exception raised from ")) {
      // c10: `Exception raised from make_tensor at aten/src/ATen/Functions.cpp:25 (most recent call first):`
      // right under the error it locates is a line of that error (its frames follow); alone, the
      // location states no error of its own.
      if (m_last_error >= 0) {
        auto& error = m_events[static_cast<std::size_t>(m_last_error)];
        if (static_cast<int>(error.detail.size()) == m_number - error.where.line - 1 && m_number - error.where.line <= 2 &&
            m_detail_event != m_last_error)
          error.detail.push_back(util::clean_text(m_raw, k_max_text));
      }
      return;
    } else if (found & a_shim_exception) {
      // `[E1119 16:44:43.826 shim_common.cpp:403] Exception in aoti_torch: Specified device ...`
      e.problem = "shim exception";
      e.subject = "aoti_torch";
      e.value = util::clean_text(util::trim(util::after(m_line, "Exception in aoti_torch: ")), k_max_field);
      find_glog_location(m_line, e.source_file, e.source_line);
    } else if ((found & a_device_guard) && line.find("GuardImpl initialized with non-") != std::string_view::npos) {
      // c10's device guard of one device type given another: `CUDAGuardImpl initialized with non-CUDA DeviceType: cpu`.
      e.problem = "device guard";
      e.value = util::clean_text(line, k_max_field);
    } else if ((found & a_unknown_exception) && line.starts_with("Unknown exception occurred.")) {
      e.problem = "unknown exception";
    } else if ((found & a_error_prefix) && line.starts_with("Error: ") && !m_line_had_event) {
      // The AOTI runtime's interface prints `Error: <what()>` before returning a failure code.
      e.problem = "error";
      e.value = util::clean_text(util::trim(line.substr(7)), k_max_field);
    } else {
      return;
    }
    const auto key = fmt::format("{}|{}|{}|{}", e.problem, e.subject, e.value, e.source_file);
    add(std::move(e), key);
  }

  // glog's `[E1119 16:44:43.826121120 shim_common.cpp:403] ...`: the file and line in the prefix.
  static void find_glog_location(std::string_view line, std::string& file, int& number) {
    if (!line.starts_with('[')) return;
    const auto close = line.find(']');
    if (close == std::string_view::npos) return;
    const auto where = util::last_word(line.substr(1, close - 1));
    const auto colon = where.rfind(':');
    if (colon == std::string_view::npos) return;
    file = util::clean_text(where.substr(0, colon), k_max_field);
    number = util::to_int(util::digits_at(where, colon + 1)).value_or(0);
  }

  // c10's and gdb's native frames belong to the error or crash just before them.
  void native_frame_line(std::uint64_t found) {
    const auto line = util::trim(m_line);
    if (!(found & a_c10_frame) && !(line.size() > 2 && line[0] == '#' && line[1] >= '0' && line[1] <= '9')) return;
    const auto frame = native_frame(m_line);
    if (!frame) return;
    const int target = frame->from_gdb && m_last_crash >= 0 ? m_last_crash : m_last_error;
    if (target < 0) return;
    auto& frames = m_events[static_cast<std::size_t>(target)].frames;
    if (frames.size() >= k_max_frames) return;
    frames.push_back({util::clean_text(frame->module, k_max_field), 0, util::clean_text(frame->symbol, k_max_field), "", m_number,
                      true, util::clean_text(util::trim(m_raw), k_max_text)});
  }

  std::string m_display;
  std::string_view m_line;
  int m_number = 0;
  std::vector<LogEvent> m_events;
  std::unordered_map<std::string, std::size_t> m_folded;
  std::unordered_map<std::string, std::size_t> m_specialized;
  std::size_t m_dropped = 0;
  bool m_in_traceback = false;
  std::string m_traceback_prefix;
  std::optional<LogEvent> m_pending_terminate;
  bool m_in_suggested_fixes = false;
  bool m_saw_data_dependent = false;
  std::vector<model::LogFrame> m_frames;  // the current traceback's frames
  int m_detail_event = -1;               // the exception whose message the next lines may continue
  int m_detail_blank = 0;
  int m_last_exception = -1;             // the last Python exception: the one that ended the run
  int m_last_error = -1;                 // the last error event, for the native frames after it
  int m_last_crash = -1;                 // the last crash signal, for a debugger's backtrace after it
  int m_diagnostic_event = -1;           // the compiler diagnostic whose excerpt may follow
  int m_diagnostic_line = 0;
  std::optional<LogEvent> m_pending_bare;  // a bare `error:` waiting for its source excerpt
  bool m_saw_compiler = false;
  std::string m_include_root;            // the outermost file of the last `In file included from` chain
  int m_include_line = 0;
  std::string_view m_raw;                // the line as the log holds it (m_line: without its prefix)
  int m_version_event = -1;              // a missing symbol version whose `(required by` may follow
  int m_draft_event = -1;                // a draft_export report item whose frames may follow
  std::unordered_map<std::string, std::string> m_descriptors;  // strace: descriptor -> opened path
  std::array<std::pair<int, std::string>, 4> m_recent{};      // the last lines, as the log holds them
  std::size_t m_recent_next = 0;
  bool m_line_had_event = false;  // the current line gave an event already
  int m_statement_event = -1;     // an event whose sentence continues on the next lines
  std::size_t m_index_check = 0;  // the last C++ index-check event and its line, for exception_from()
  int m_index_check_line = 0;
};

// Scans every line `reader` gives; a line longer than the cap is scanned by its first bytes, and
// the first such line is named in a diagnostic.
LogScan scan_lines(util::LineReader& reader, const std::string& display) {
  Scanner scanner(display);
  util::Line line;
  std::uint64_t lines = 0;
  while (reader.next(line)) {
    ++lines;
    scanner.scan(line.text, line.number > INT_MAX ? INT_MAX : static_cast<int>(line.number));
  }
  auto scan = scanner.finish(lines);
  if (reader.cut_lines() > 0) {
    auto message = fmt::format("line {} is longer than {} bytes ({} bytes); only its first {} bytes were scanned",
                               reader.first_cut_line(), k_max_line, reader.first_cut_length(), k_max_line);
    if (reader.cut_lines() > 1) message += fmt::format(" ({} lines were cut the same way)", reader.cut_lines());
    scan.diagnostics.insert(scan.diagnostics.begin(), model::Diagnostic{display, std::move(message)});
  }
  return scan;
}

}  // namespace

Parsed<LogScan> scan_log_file(const std::filesystem::path& path, const std::string& display) {
  util::LineReader reader(path, k_max_line);
  if (!reader.is_open()) return fail(fmt::format("cannot open {}: {}", path.string(), reader.error()));
  auto scan = scan_lines(reader, display);
  if (!reader.error().empty()) return fail(fmt::format("cannot read {}: {}", path.string(), reader.error()));
  return scan;
}

LogScan scan_log_text(std::string_view text, const std::string& display) {
  auto reader = util::LineReader::of_text(text, k_max_line);
  return scan_lines(reader, display);
}

}  // namespace aoti::parsers::logs
