// Recognizers of kernel failures: device asserts, C++ kernels' index checks, CUDA errors, and what
// follows them in a process (terminate, a crash signal).
#include "parsers/logs/scanner.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "torch/index_assert.hpp"
#include "util/text.hpp"
#include "util/utf8.hpp"

namespace aoti::parsers::logs {

namespace {

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
      {"cudaErrorNoKernelImageForDevice",
       "no kernel image is available for execution on the device"},
  }};
  for (const auto& [enum_name, message] : k_messages)
    if (enum_name == name) return message;
  return name;
}

// The cudaGetErrorString text of a kernel fault `line` holds, "" when none.
std::string_view cuda_fault_text(std::string_view line) {
  for (std::string_view name : {"cudaErrorIllegalAddress", "cudaErrorIllegalInstruction",
                                "cudaErrorLaunchFailure", "cudaErrorMisalignedAddress"}) {
    const auto text = cuda_enum_message(name);
    if (line.find(text) != std::string_view::npos) return text;
  }
  return {};
}

// `path/to/file.py:33: ...` anywhere in `prefix`: the first `:<digits>:` and the path before it.
bool find_source_location(std::string_view prefix, std::string& file, int& line) {
  for (auto colon = prefix.find(':'); colon != std::string_view::npos;
       colon = prefix.find(':', colon + 1)) {
    const auto digits = util::digits_at(prefix, colon + 1);
    if (digits.empty() || colon + 1 + digits.size() >= prefix.size() ||
        prefix[colon + 1 + digits.size()] != ':')
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

}  // namespace

// Device asserts: `<file>:<line>: <function>: block: [..], thread: [..] Assertion `<msg>` failed.`
// from Triton kernels and from ATen's CUDA kernels (whose message is a C++ condition).
void Scanner::assertion(std::uint64_t) {
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
  // A failed host assert aborts the process, which the crash events already report; one in LLVM's
  // or MLIR's own sources (`python: /root/.triton/llvm/.../Casting.h:566: ...: Assertion
  // `isa<To>(Val) && ...' failed.`) is the compiler Triton runs crashing on a kernel.
  if (!out_of_bounds && !on_device) {
    std::string file;
    int line = 0;
    find_source_location(prefix, file, line);
    if (file.find("/llvm/") == std::string::npos && file.find("/mlir/") == std::string::npos &&
        file.find("/llvm-project/") == std::string::npos)
      return;
    auto e = event(LogEventKind::compile_error);
    e.problem = "compiler crash";
    e.subject = "LLVM";
    e.value = util::clean_text(util::trim(m_line.substr(at)), k_max_field);
    e.source_file = util::clean_text(file, k_max_field);
    e.source_line = line;
    commit_diagnostic(std::move(e));
    return;
  }

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
void Scanner::index_check(std::uint64_t) {
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
    const auto digits =
        colon == std::string_view::npos ? std::string_view{} : util::digits_at(prefix, colon + 1);
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
void Scanner::exception_from(std::uint64_t) {
  if (m_index_check_line == 0 || m_number != m_index_check_line + 1 ||
      m_index_check >= m_events.size())
    return;
  LogEvent& e = m_events[m_index_check];
  m_index_check_line = 0;
  if (!e.kernel.empty()) return;
  const auto rest = util::after(m_line, "Exception raised from ");
  const auto function = rest.substr(0, rest.find(' '));
  if (function.empty() || !std::all_of(function.begin(), function.end(), util::is_identifier_char))
    return;
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
void Scanner::cuda_error(std::uint64_t found) {
  auto e = event(LogEventKind::cuda_error);
  std::string_view value;
  if (found & a_cuda_error) {
    e.subject = "CUDA error";
    // c10's `CUDA error: `; libraries' own checks (TransformerEngine's) print `CUDA Error: `.
    value = util::after(m_line, "CUDA error: ");
    if (value.empty()) value = util::after(m_line, "CUDA Error: ");
  } else if (found & a_cuda_driver) {
    e.subject = "CUDA driver error";
    value = util::after(m_line, "CUDA driver error: ");
  } else if (found & a_triton_error) {
    e.subject = "Triton Error [CUDA]";
    value = util::after(m_line, "Triton Error [CUDA]: ");
  } else if (found & a_cublas) {
    value = util::identifier_at(m_line, m_line.find("CUBLAS_STATUS_"));
    e.subject = std::string(value);
  } else if (const auto enum_at = m_line.find("cudaError"); enum_at != std::string_view::npos) {
    const auto name = util::identifier_at(m_line, enum_at);
    if (name == "cudaError" || name.starts_with("cudaError_")) return;  // the type, "cudaError_t"
    e.subject = std::string(name);
    value = cuda_enum_message(name);
  } else {
    // A fault's cudaGetErrorString text in a library's own check: an error only when the line
    // states one (`Check failed: ... Error: <text>`), not in prose that mentions it.
    if (!(found & (a_error_prefix | a_error_word)) &&
        m_line.find("failed") == std::string_view::npos)
      return;
    value = cuda_fault_text(m_line);
    if (value.empty()) return;
    e.subject = "CUDA runtime error text";
  }
  value = util::trim(value);
  if (value.empty()) return;
  e.value = util::clean_text(value, k_max_field);
  // `RuntimeError: CUDA error: ...` under the code line of a frame whose `File` line is lost.
  if (!exception_type_at_start(util::trim(m_line)).empty()) take_orphan_code(e);
  const auto key = e.value;
  add(std::move(e), key);
}

// terminate called after throwing an instance of 'std::runtime_error'
//   what():  CUDA error: device-side assert triggered
void Scanner::terminate(std::uint64_t) {
  auto e = event(LogEventKind::terminate);
  // libc++abi states the type and what() on its one line.
  if (const auto at = m_line.find("uncaught exception of type "); at != std::string_view::npos) {
    const auto rest = m_line.substr(at + 27);
    const auto colon = rest.find(": ");
    e.subject = util::clean_text(rest.substr(0, colon), k_max_field);
    if (colon != std::string_view::npos)
      e.value = util::clean_text(util::trim(rest.substr(colon + 2)), k_max_field);
    const auto key = e.subject + "|" + e.value;
    add(std::move(e), key);
    return;
  }
  e.subject = util::clean_text(util::between(m_line, "an instance of '", "'"), k_max_field);
  e.text = line_text(m_raw);  // added only once the next line is read
  m_pending_terminate = std::move(e);
}

void Scanner::finish_terminate() {
  if (const auto what = util::trim(m_line); what.starts_with("what():")) {
    m_pending_terminate->value = util::clean_text(util::trim(what.substr(7)), k_max_field);
    m_pending_terminate->detail.push_back(util::clean_text(m_raw, k_max_text));
  }
  commit_terminate();
}

void Scanner::commit_terminate() {
  auto e = std::move(*m_pending_terminate);
  m_pending_terminate.reset();
  const auto key = e.subject + "|" + e.value;
  add(std::move(e), key);
}

// One event per signal: a crash is often reported twice (Python's faulthandler, then the shell).
void Scanner::crash_signal(std::uint64_t found) {
  auto e = event(LogEventKind::segfault);
  if (const auto report = m_line.find("Sanitizer: "); report != std::string_view::npos) {
    // A sanitizer's report of the fault it stopped the process on: `==6330==ERROR:
    // AddressSanitizer: SEGV on unknown address 0x10 (pc ... T2)`, `... heap-use-after-free on
    // address ...`. Its frames follow (`#0 0x.. in f (lib+0x..)`).
    const auto error = m_line.rfind("ERROR: ", report);
    if (error == std::string_view::npos) return;
    auto stated = util::trim(m_line.substr(error + 7));
    stated = stated.substr(0, stated.find(" (pc "));
    const auto kind = util::trim(util::after(stated, "Sanitizer: "));
    e.subject = kind.starts_with("SEGV") ? "SIGSEGV" : std::string(util::first_word(kind));
    e.value = util::clean_text(stated, k_max_field);
    const auto key = "sanitizer|" + e.subject;
    add(std::move(e), key);
    return;
  }
  if ((found & a_sigsegv) &&
      m_line.find("stop reason = EXC_BAD_ACCESS") != std::string_view::npos) {
    // lldb: `* thread #3, stop reason = EXC_BAD_ACCESS (code=1, address=0x8)`, the Mach exception
    // macOS turns into SIGSEGV or SIGBUS.
    e.subject = "EXC_BAD_ACCESS";
    e.value = util::clean_text(util::trim(util::after(m_line, "stop reason = ")), k_max_field);
  } else if (found & (a_segfault | a_sigsegv)) {
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

// Named values a program printed as NaN or Inf: a metrics dict (`{'loss': nan, 'grad_norm': nan}`),
// `loss: nan`, `loss=inf`. A name then `: ` or `=`, then the value as Python or C++ print it.
void Scanner::printed_values(std::uint64_t) {
  std::vector<std::string_view> names;  // in the order the line prints them
  std::string_view first;
  // One pass over the separators: the value must follow `: ` or `=` right away.
  for (std::size_t at = 0; at < m_line.size(); ++at) {
    if (m_line[at] != ':' && m_line[at] != '=') continue;
    std::size_t start = at + 1;
    if (m_line[at] == ':') {
      if (start >= m_line.size() || m_line[start] != ' ') continue;
      ++start;
    }
    std::string_view value;
    for (std::string_view token : {"nan", "-nan", "inf", "-inf", "NaN", "Inf", "-Inf"}) {
      const auto end = start + token.size();
      if (m_line.substr(start, token.size()) == token &&
          (end == m_line.size() ||
           std::string_view(",} )]\t").find(m_line[end]) != std::string_view::npos))
        value = m_line.substr(start, token.size());
    }
    if (value.empty()) continue;
    // `name`, `'name'` or `"name"` right before the separator.
    auto before = m_line.substr(0, at);
    if (before.ends_with('\'') || before.ends_with('"')) before.remove_suffix(1);
    auto begin = before.size();
    while (begin > 0 && util::is_identifier_char(before[begin - 1])) --begin;
    const auto name = before.substr(begin);
    if (name.empty() || util::is_digit(name.front())) continue;
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    if (first.empty()) first = value;
  }
  if (names.empty()) return;
  auto e = event(LogEventKind::printed_nonfinite);
  std::string joined;
  for (const auto name : names) joined += (joined.empty() ? "" : ",") + std::string(name);
  e.subject = util::clean_text(joined, k_max_field);
  e.value = std::string(first);
  // Folded only with identical lines: lines that differ elsewhere (the step, the rate) stay apart.
  const auto key = "nonfinite|" + std::string(m_line);
  add(std::move(e), key);
}

}  // namespace aoti::parsers::logs
