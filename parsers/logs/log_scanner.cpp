#include "parsers/logs/log_scanner.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <cstring>
#include <memory>
#include <optional>
#include <system_error>
#include <unordered_map>

#include <fmt/format.h>

#include "analyzer/core/index_assert.hpp"
#include "parsers/logs/text_scan.hpp"

namespace aoti::parsers::logs {
namespace {

using core::LogEvent;
using core::LogEventKind;

// Longer lines are cut: no message we look for is anywhere near this long, and it bounds memory
// for logs that are one huge line (a binary dump, a progress bar without newlines).
constexpr std::size_t k_max_line = 64 * 1024;
constexpr std::size_t k_read_chunk = 1024 * 1024;
constexpr std::size_t k_max_text = 1000;
constexpr std::size_t k_max_field = 300;
// A hostile log may hold millions of distinct errors; past this many, new ones are only counted.
constexpr std::size_t k_max_events = 10000;

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
  a_index_check = 1ull << 27,
  a_exception_from = 1ull << 28,
};

const AnchorSet& anchors() {
  static const AnchorSet set({
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
      {"index out of bounds: ", a_index_check},
      {"Exception raised from ", a_exception_from},
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
    const auto digits = digits_at(prefix, colon + 1);
    if (digits.empty() || colon + 1 + digits.size() >= prefix.size() || prefix[colon + 1 + digits.size()] != ':')
      continue;
    const auto start = prefix.find_last_of(" \t", colon);
    const auto path = prefix.substr(start == std::string_view::npos ? 0 : start + 1,
                                    colon - (start == std::string_view::npos ? 0 : start + 1));
    // A timestamp's "12:00:00" has the same shape; a source path has an extension.
    if (path.find('.') == std::string_view::npos) continue;
    file = clean_text(path, k_max_field);
    line = to_int(digits).value_or(0);
    return true;
  }
  return false;
}

bool is_identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Recognises every pattern on one line at a time, keeping the little state that multi-line
// messages need (a traceback's last line, terminate's what(), export's suggested fixes).
class Scanner {
 public:
  explicit Scanner(const std::string& display) : m_display(display) {}

  void scan(std::string_view line, int number) {
    if (line.ends_with('\r')) line.remove_suffix(1);
    const std::uint64_t found = anchors().find_all(line);
    m_line = line;
    m_number = number;

    bool exception_line = false;
    if (m_in_traceback) exception_line = continue_traceback();
    if (m_pending_terminate) finish_terminate();
    if (m_in_suggested_fixes) continue_suggested_fixes();

    if (found & a_input_handles) input_check();
    if (found & a_mixed_device) mixed_device();
    if (found & a_same_device) same_device();
    if (found & a_host_pointer) add(event(LogEventKind::pointer_on_host), "");
    if (found & a_out_tensor) out_tensor();
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
    if (found & a_traceback) {
      m_in_traceback = true;
      m_traceback_prefix = line.substr(0, line.find("Traceback (most recent call last):"));
    }
  }

  LogScan finish(std::uint64_t lines) {
    if (m_pending_terminate) commit_terminate();
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
    if (e.text.empty()) e.text = clean_text(trim(m_line), k_max_text);
    m_events.push_back(std::move(e));
    return &m_events.back();
  }

  // Error: input_handles[0]: dim value is too large at 0, expected to be <= 1024, but got: 4096
  void input_check() {
    const auto at = m_line.find("input_handles[");
    auto rest = m_line.substr(at + 14);
    const auto index = digits_at(rest, 0);
    if (index.empty() || !rest.substr(index.size()).starts_with("]: ")) return;
    rest.remove_prefix(index.size() + 3);
    const auto expected_at = rest.find("expected");
    const auto got_at = rest.find("but got:");
    if (expected_at == std::string_view::npos || got_at == std::string_view::npos || got_at < expected_at) return;

    auto e = event(LogEventKind::input_check_error);
    e.input_index = to_int(index).value_or(-1);
    auto problem = rest.substr(0, std::min(rest.find(", "), expected_at));
    if (const auto dim_at = problem.find(" at "); dim_at != std::string_view::npos) {
      e.dim = to_int(digits_at(problem, dim_at + 4)).value_or(-1);
      problem = problem.substr(0, dim_at);
    }
    e.problem = clean_text(trim(problem), k_max_field);
    // "expected: 16", "expected to be <= 1024", "expected it to be >= 2": the value is the last word.
    auto expected = trim(rest.substr(expected_at + 8, got_at - expected_at - 8));
    if (expected.ends_with(',')) expected.remove_suffix(1);
    expected = last_word(expected);
    e.expected = clean_text(expected, k_max_field);
    // torch 2.11 prints the runtime code and then the codegen'd label, which itself starts with the
    // code: `expected: 11(cuda)` is code 1 followed by "1(cuda)". `expected` stays as printed;
    // `value` gets the meaning from the label.
    e.value = clean_text(label_of(expected), k_max_field);
    e.actual = clean_text(first_word(trim(rest.substr(got_at + 8))), k_max_field);
    const auto key = fmt::format("{}|{}|{}|{}|{}", e.input_index, e.problem, e.dim, e.expected, e.actual);
    add(std::move(e), key);
  }

  // Error: Mixed-device constants are only supported when ... Constant 'linear_weight' was ...
  void mixed_device() {
    auto e = event(LogEventKind::mixed_device_constants);
    e.subject = clean_text(between(m_line, "Constant '", "'"), k_max_field);
    const auto key = e.subject;
    add(std::move(e), key);
  }

  // "... but found at least two devices, cuda:0 and cpu!" or, in older torch,
  // "... but got index is on cpu, different from other tensors on cuda:0 (when checking ...)".
  void same_device() {
    auto e = event(LogEventKind::tensors_on_different_devices);
    if (auto pair = between(m_line, "at least two devices, ", "!"); !pair.empty()) {
      e.value = clean_text(pair, k_max_field);
    } else {
      const auto on = between(m_line, " is on ", ",");
      const auto other = first_word(after(m_line, "different from other tensors on "));
      if (!on.empty() && !other.empty()) e.value = clean_text(fmt::format("{} and {}", on, other), k_max_field);
    }
    const auto key = e.value;
    add(std::move(e), key);
  }

  // Expected out tensor to have device cuda:0, but got cpu instead
  void out_tensor() {
    auto e = event(LogEventKind::out_tensor_device);
    e.expected = clean_text(between(m_line, "Expected out tensor to have device ", ","), k_max_field);
    e.actual = clean_text(first_word(after(m_line, "but got ")), k_max_field);
    e.value = e.actual;
    const auto key = e.expected + "|" + e.actual;
    add(std::move(e), key);
  }

  // run_func_( ... ) API call failed at /pytorch/.../model_container_runner.cpp, line 144
  void api_call_failed() {
    const auto at = m_line.find("API call failed at ");
    auto call = trim(m_line.substr(0, at));
    // Drop whatever the program printed before the call ("cpu error: RuntimeError "): the call
    // starts at the identifier before its first parenthesis.
    if (const auto paren = call.find('('); paren != std::string_view::npos) {
      auto start = paren;
      while (start > 0 && (is_identifier_char(call[start - 1]) || call[start - 1] == ':' || call[start - 1] == '.'))
        --start;
      call.remove_prefix(start);
    }
    const auto location = m_line.substr(at + 19);
    const auto comma = location.rfind(", line ");
    if (comma == std::string_view::npos) return;
    auto e = event(LogEventKind::api_call_failed);
    e.subject = clean_text(call, k_max_field);
    e.source_file = clean_text(location.substr(0, comma), k_max_field);
    const auto line = digits_at(location, comma + 7);
    e.source_line = to_int(line).value_or(0);
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
    e.subject = clean_text(message, k_max_field);
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
    const auto at = m_line.find(core::k_index_assert_prefix);
    if (at > 0 && (m_line[at - 1] == '`' || m_line[at - 1] == '\'')) return;
    const auto message = trim(m_line.substr(at));
    if (!core::parse_index_assert(message)) return;
    auto e = event(LogEventKind::triton_assert);
    e.subject = clean_text(message, k_max_field);
    // `kernel, /tmp/.../x.main.cpp:25, ` just before the message: the kernel file and line.
    auto prefix = m_line.substr(0, at);
    if (prefix.ends_with(", ")) {
      prefix.remove_suffix(2);
      const auto colon = prefix.rfind(':');
      const auto digits = colon == std::string_view::npos ? std::string_view{} : digits_at(prefix, colon + 1);
      if (!digits.empty() && colon + 1 + digits.size() == prefix.size()) {
        const auto start = prefix.find_last_of(" \t", colon);
        const auto path = prefix.substr(start == std::string_view::npos ? 0 : start + 1,
                                        colon - (start == std::string_view::npos ? 0 : start + 1));
        e.source_file = clean_text(path, k_max_field);
        e.source_line = to_int(digits).value_or(0);
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
    const auto rest = after(m_line, "Exception raised from ");
    const auto function = rest.substr(0, rest.find(' '));
    if (function.empty() || !std::all_of(function.begin(), function.end(), is_identifier_char)) return;
    e.kernel = std::string(function);
    auto location = after(rest, " at ");
    location = location.substr(0, location.find(" ("));
    const auto colon = location.rfind(':');
    if (colon == std::string_view::npos) return;
    const auto digits = digits_at(location, colon + 1);
    if (digits.empty() || !e.source_file.empty()) return;
    e.source_file = clean_text(location.substr(0, colon), k_max_field);
    e.source_line = to_int(digits).value_or(0);
  }

  // The error text is the value (so the same error seen as `CUDA error: X` and as its enum name
  // folds); the subject says which spelling was seen first.
  void cuda_error(std::uint64_t found) {
    auto e = event(LogEventKind::cuda_error);
    std::string_view value;
    if (found & a_cuda_error) {
      e.subject = "CUDA error";
      value = after(m_line, "CUDA error: ");
    } else if (found & a_cuda_driver) {
      e.subject = "CUDA driver error";
      value = after(m_line, "CUDA driver error: ");
    } else if (found & a_triton_error) {
      e.subject = "Triton Error [CUDA]";
      value = after(m_line, "Triton Error [CUDA]: ");
    } else if (found & a_cublas) {
      value = identifier_at(m_line, m_line.find("CUBLAS_STATUS_"));
      e.subject = std::string(value);
    } else {
      const auto name = identifier_at(m_line, m_line.find("cudaError"));
      if (name == "cudaError" || name.starts_with("cudaError_")) return;  // the type, "cudaError_t"
      e.subject = std::string(name);
      value = cuda_enum_message(name);
    }
    value = trim(value);
    if (value.empty()) return;
    e.value = clean_text(value, k_max_field);
    const auto key = e.value;
    add(std::move(e), key);
  }

  // terminate called after throwing an instance of 'std::runtime_error'
  //   what():  CUDA error: device-side assert triggered
  void terminate() {
    auto e = event(LogEventKind::terminate);
    e.subject = clean_text(between(m_line, "an instance of '", "'"), k_max_field);
    e.text = clean_text(trim(m_line), k_max_text);  // added only once the next line is read
    m_pending_terminate = std::move(e);
  }

  void finish_terminate() {
    if (const auto what = trim(m_line); what.starts_with("what():"))
      m_pending_terminate->value = clean_text(trim(what.substr(7)), k_max_field);
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
          trim(m_line) != "Bus error")
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
    const auto name = clean_text(symbol, k_max_field);
    if (auto it = m_specialized.find(name); it != m_specialized.end()) return &m_events[it->second];
    auto e = event(LogEventKind::export_specialized);
    e.subject = name;
    LogEvent* added = add(std::move(e), name);
    if (added) m_specialized.emplace(name, static_cast<std::size_t>(added - m_events.data()));
    return added;
  }

  void set_constant(LogEvent* e, std::string_view value) {
    if (!e || value.empty()) return;
    e->value = clean_text(value, k_max_field);
    e->problem = "specialized to a constant";
  }

  // Constraints violated (batch, seq)! For more information, run with TORCH_LOGS="+dynamic".
  void constraints_violated() {
    auto symbols = between(m_line, "Constraints violated (", ")");
    while (!symbols.empty()) {
      const auto comma = symbols.find(',');
      if (const auto symbol = trim(symbols.substr(0, comma)); !symbol.empty()) specialized(symbol);
      symbols = comma == std::string_view::npos ? std::string_view{} : symbols.substr(comma + 1);
    }
  }

  // You marked batch as dynamic but your code specialized it to be a constant (8).
  void marked_dynamic() {
    const auto symbol = between(m_line, "You marked ", " as dynamic");
    if (symbol.empty()) return;
    auto* e = specialized(symbol);
    set_constant(e, digits_at(after(m_line, "specialized it to be a constant ("), 0));
  }

  // Not all values of batch = L['x'].size()[0] in the specified range ... are valid because batch
  // was inferred to be a constant (8).   /   ... satisfy the generated guard Ne(...).
  void not_all_values() {
    const auto symbol = between(m_line, "Not all values of ", " = ");
    if (symbol.empty()) return;
    auto* e = specialized(symbol);
    if (!e) return;
    if (const auto constant = digits_at(after(m_line, "inferred to be a constant ("), 0); !constant.empty()) {
      set_constant(e, constant);
    } else if (auto guard = trim(after(m_line, "satisfy the generated guard ")); !guard.empty()) {
      if (guard.ends_with('.')) guard.remove_suffix(1);
      if (e->problem.empty()) e->problem = clean_text(fmt::format("violates the guard {}", guard), k_max_field);
    }
  }

  // Suggested fixes:
  //   batch = 8
  void continue_suggested_fixes() {
    if (m_line.empty() || (m_line[0] != ' ' && m_line[0] != '\t')) {
      if (m_line.find("Suggested fixes:") == std::string_view::npos) m_in_suggested_fixes = false;
      return;
    }
    const auto line = trim(m_line);
    const auto eq = line.find(" = ");
    if (eq == std::string_view::npos) return;
    const auto value = line.substr(eq + 3);
    if (value.empty() || digits_at(value, 0).size() != value.size()) return;
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
    e.value = clean_text(trim(m_line.substr(message == std::string_view::npos ? 0 : message)), k_max_field);
    m_saw_data_dependent = true;
    const auto key = e.subject + "|" + e.value;
    add(std::move(e), key);
  }

  // Frames are indented; the first line that is not is `Type: message`. Returns whether this line
  // was that exception line.
  bool continue_traceback() {
    auto body = m_line;
    if (!m_traceback_prefix.empty() && body.starts_with(m_traceback_prefix)) body.remove_prefix(m_traceback_prefix.size());
    if (body.empty() || body[0] == ' ' || body[0] == '\t') return false;
    m_in_traceback = false;
    std::size_t end = 0;
    while (end < body.size() && (is_identifier_char(body[end]) || body[end] == '.')) ++end;
    const auto type = body.substr(0, end);
    const auto last = type.substr(type.rfind('.') == std::string_view::npos ? 0 : type.rfind('.') + 1);
    if (last.empty() || last[0] < 'A' || last[0] > 'Z') return false;
    if (end < body.size() && body[end] != ':') return false;
    auto e = event(LogEventKind::python_exception);
    e.subject = clean_text(type, k_max_field);
    e.value = clean_text(trim(body.substr(std::min(end + 1, body.size()))), k_max_field);
    if (body.find("data-dependent expression") != std::string_view::npos) {
      e.problem = "data-dependent guard";
      m_saw_data_dependent = true;
    }
    const auto key = e.subject + "|" + e.value;
    add(std::move(e), key);
    return true;
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
  std::size_t m_index_check = 0;  // the last C++ index-check event and its line, for exception_from()
  int m_index_check_line = 0;
};

// Splits a byte stream into lines and feeds them to the scanner, keeping at most k_max_line
// bytes of each line, so memory stays bounded whatever the input.
class LogReader {
 public:
  explicit LogReader(const std::string& display) : m_display(display), m_scanner(display) {}

  void feed(std::string_view chunk) {
    while (!chunk.empty()) {
      const auto* newline = static_cast<const char*>(std::memchr(chunk.data(), '\n', chunk.size()));
      const std::size_t piece = newline ? static_cast<std::size_t>(newline - chunk.data()) : chunk.size();
      if (newline && m_length == 0) {
        // The common case: a whole line inside the chunk is scanned in place, without a copy.
        m_length = piece;
        emit(chunk.substr(0, std::min(piece, k_max_line)));
      } else {
        if (m_line.size() < k_max_line) m_line.append(chunk.data(), std::min(piece, k_max_line - m_line.size()));
        m_length += piece;
        if (newline) emit(m_line);
      }
      chunk.remove_prefix(newline ? piece + 1 : piece);
    }
  }

  LogScan finish() {
    if (m_length > 0) emit(m_line);
    auto scan = m_scanner.finish(m_lines);
    if (m_long_lines > 0) {
      auto message = fmt::format("line {} is longer than {} bytes ({} bytes); only its first {} bytes were scanned",
                                 m_first_long_line, k_max_line, m_first_long_length, k_max_line);
      if (m_long_lines > 1) message += fmt::format(" ({} lines were cut the same way)", m_long_lines);
      scan.diagnostics.insert(scan.diagnostics.begin(), core::Diagnostic{m_display, std::move(message)});
    }
    return scan;
  }

 private:
  void emit(std::string_view line) {
    ++m_lines;
    if (m_length > k_max_line) {
      if (m_long_lines++ == 0) {
        m_first_long_line = m_lines;
        m_first_long_length = m_length;
      }
    }
    m_scanner.scan(line, m_lines > INT_MAX ? INT_MAX : static_cast<int>(m_lines));
    m_line.clear();
    m_length = 0;
  }

  std::string m_display;
  Scanner m_scanner;
  std::string m_line;          // the current line's first k_max_line bytes, when it spans chunks
  std::uint64_t m_length = 0;  // the current line's real length so far
  std::uint64_t m_lines = 0;
  std::uint64_t m_long_lines = 0;
  std::uint64_t m_first_long_line = 0;
  std::uint64_t m_first_long_length = 0;
};

std::string errno_text(int error) { return std::generic_category().message(error); }

}  // namespace

Parsed<LogScan> scan_log_file(const std::filesystem::path& path, const std::string& display) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return fail(fmt::format("cannot open {}: {}", path.string(), errno_text(errno)));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};

  LogReader reader(display);
  const auto buffer = std::make_unique<char[]>(k_read_chunk);
  for (;;) {
    const ssize_t n = ::read(fd, buffer.get(), k_read_chunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail(fmt::format("cannot read {}: {}", path.string(), errno_text(errno)));
    }
    if (n == 0) break;
    reader.feed(std::string_view(buffer.get(), static_cast<std::size_t>(n)));
  }
  return reader.finish();
}

LogScan scan_log_text(std::string_view text, const std::string& display) {
  LogReader reader(display);
  reader.feed(text);
  return reader.finish();
}

}  // namespace aoti::parsers::logs
