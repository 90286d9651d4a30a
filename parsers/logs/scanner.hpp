// The log scanner's line-by-line state and its recognizers, private to parsers/logs: the driver
// (log_scanner.cpp) prepares each line and runs the recognizers of the table in its order; the
// recognizers_*.cpp files each hold one family of them, grouped by what failed.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/case.hpp"
#include "parsers/logs/failure_lines.hpp"
#include "parsers/logs/log_scanner.hpp"

namespace aoti::parsers::logs {

using model::LogEvent;
using model::LogEventKind;

inline constexpr std::size_t k_max_text = 1000;
inline constexpr std::size_t k_max_field = 300;
// A hostile log may hold millions of distinct errors; past this many, new ones are only counted.
inline constexpr std::size_t k_max_events = 10000;
// A traceback's frames and an exception message's further lines, per event.
inline constexpr std::size_t k_max_frames = 48;
inline constexpr std::size_t k_max_detail_lines = 60;
// A compiler diagnostic's lines under it (message continued, source excerpt, caret).
inline constexpr int k_max_diagnostic_tail = 4;

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
  a_aot_api = 1ull << 18,    // torch._export.aot_compile / aot_load
  a_nonfinite = 1ull << 19,  // nan / inf as a program prints a value
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
  a_draft_report = 1ull << 47,  // draft_export report items other than a data-dependent error
  a_draft_frame = 1ull << 48,
  a_syscall_result = 1ull << 49,
  a_required_by = 1ull << 50,
  a_device_guard = 1ull << 51,
  a_while_executing = 1ull << 52,
  a_tagged_cuda = 1ull << 53,
  a_test_result = 1ull << 54,
  a_package_loader = 1ull << 57,
  a_index_check = 1ull << 55,
  a_gpu_capability = 1ull << 56,
  a_printed_size = 1ull << 58,
  a_resized = 1ull << 59,
  a_openmp_error = 1ull << 60,
  a_cut_frame = 1ull << 61,
  a_dynamo_footer = 1ull << 62,
  a_faulthandler = 1ull << 63,
};
inline constexpr std::uint64_t k_load_anchors =
    a_undefined_symbol | a_cannot_open_object | a_symbol_version | a_wrong_elf_class |
    a_invalid_elf | a_missing_schema | a_dlopen | a_package_loader;

// A line as events quote it: trimmed, made printable, and cut at k_max_text with a visible "…".
std::string line_text(std::string_view raw);

// What CI systems and loggers put before every line, removed (log_scanner.cpp).
std::string_view strip_log_prefix(std::string_view line);

// Recognises every pattern on one line at a time, keeping the little state that multi-line
// messages need (a traceback's last line, terminate's what(), export's suggested fixes).
class Scanner {
 public:
  explicit Scanner(const std::string& display) : m_display(display) {}
  void scan(std::string_view line, int number);
  LogScan finish(std::uint64_t lines);

 private:
  // Every recognizer has this signature, so that one table lists them all. `found` holds the
  // anchors the line contains.
  using Recognize = void (Scanner::*)(std::uint64_t found);
  struct Recognizer {
    std::uint64_t anchors;  // it runs on a line holding any of these; 0: on every line
    Recognize recognize;
  };
  // In the order they run on a line, which is the order of the events one line gives.
  static const Recognizer k_recognizers[];

  // log_scanner.cpp: the events, folded
  LogEvent event(LogEventKind kind) const;
  LogEvent* add(LogEvent e, std::string_view key);
  // Whether `e` is the event add() just appended (not one it folded into an earlier one).
  bool appended(const LogEvent* e) const { return e && e == &m_events.back() && e->repeats == 1; }
  int index_of(const LogEvent* e) const { return static_cast<int>(e - m_events.data()); }
  void remember_line();

  // recognizers_inputs.cpp
  void input_check(std::uint64_t);
  void mixed_device(std::uint64_t);
  void same_device(std::uint64_t);
  void host_pointer(std::uint64_t);
  void tagged_cuda_on_host(std::uint64_t);
  void continue_statement();
  void out_tensor(std::uint64_t);
  void observed_shape(std::uint64_t found);

  // recognizers_kernels.cpp
  void assertion(std::uint64_t);
  void index_check(std::uint64_t);
  void exception_from(std::uint64_t);
  void cuda_error(std::uint64_t found);
  void terminate(std::uint64_t);
  void finish_terminate();
  void commit_terminate();
  void crash_signal(std::uint64_t found);

  // recognizers_export.cpp
  void deprecated_api(std::uint64_t found);
  void deprecated(std::string_view api);
  void deprecated_frame();
  LogEvent* specialized(std::string_view symbol);
  void set_constant(LogEvent* e, std::string_view value);
  void constraints_violated(std::uint64_t);
  void marked_dynamic(std::uint64_t);
  void not_all_values(std::uint64_t);
  void start_suggested_fixes(std::uint64_t);
  void continue_suggested_fixes();
  void data_dependent(std::uint64_t);
  void draft_export_failure(std::uint64_t found);
  void draft_export_continuation(std::uint64_t found);
  void draft_export_frame();
  void draft_export_code();

  // recognizers_python.cpp
  bool continue_traceback();
  void chain_line();
  void link_to_chain(LogEvent& e);
  void set_raised_in(LogEvent& e) const;
  void commit_cut_traceback();
  void take_cut_frames(LogEvent& e);
  static bool evaluates_guard(const std::vector<model::LogFrame>& frames);
  void resolve_chains();
  void classify_exception(LogEvent& e, std::string_view body);
  void exception_added(const LogEvent* e);
  void push_frame(std::vector<model::LogFrame>& frames, const PythonFrame& frame);
  void set_code(std::vector<model::LogFrame>& frames, std::string_view body);
  static int user_frame_of(const std::vector<model::LogFrame>& frames);
  void start_traceback(std::uint64_t);
  void dynamo_footer(std::uint64_t);
  void faulthandler_stack(std::uint64_t);
  bool continue_faulthandler_stack();
  void exception_outside_traceback(std::uint64_t found);
  bool start_traceback_at_frame();
  bool continue_detail(std::uint64_t found);
  void end_detail(LogEvent& e);
  static bool is_log_record_start(std::string_view line);
  void bare_exception();
  void while_executing(std::uint64_t);
  void test_result(std::uint64_t);

  // recognizers_build.cpp
  void compiler_line(std::uint64_t);
  void commit_diagnostic(LogEvent e);
  void continue_diagnostic();
  void include_line(std::uint64_t found);
  void command_line(std::uint64_t found);
  void load_line(std::uint64_t);
  void version_required_by(std::uint64_t found);
  void syscall_line(std::uint64_t);

  // recognizers_runtime.cpp
  void api_call_failed(std::uint64_t);
  void runtime_line(std::uint64_t found);
  void openmp_error(std::uint64_t);
  // The log's line right above the current one, as the log holds it; "" when not remembered.
  std::string_view line_above() const;
  // A line among the last few, as the log holds it; "" when it is not kept.
  std::string_view recent_line(int number) const;
  void from_user_code(std::uint64_t);
  void graph_break(std::uint64_t);
  void caret_line(std::uint64_t);
  void shell_trace(std::uint64_t);
  void printed_values(std::uint64_t);
  static void note_explanation(LogEvent& e, std::string_view body, int number);
  std::string checked_op() const;
  void take_orphan_code(model::LogEvent& e) const;
  void gpu_capability(std::uint64_t);
  static void find_glog_location(std::string_view line, std::string& file, int& number);
  void native_frame_line(std::uint64_t found);
  void module_list_line(std::uint64_t);

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
  // A traceback that stopped before its exception line: its frames, kept in case frames go on
  // after the interruption (a paste that lost indentation), else committed as a cut-off exception.
  std::vector<model::LogFrame> m_cut_frames;
  int m_cut_line = 0;               // the line that interrupted it
  bool m_traceback_header = false;  // the current traceback began with `Traceback (most recent ...`
  bool m_cut_header = false;        // the same, for m_cut_frames
  // `The above exception was the direct cause ...` / `During handling ...`: the next exception is
  // chained to m_chain_from.
  model::ExceptionLink m_pending_link = model::ExceptionLink::none;
  int m_chain_from = -1;
  bool m_saw_dynamo_footer = false;
  // The message above a `from user code:` section that no exception line precedes (a paste that
  // kept only the end of Dynamo's message): its log line, 0 when none.
  int m_program_run = -1;     // the last program_run event, while its output lines follow
  int m_caret_code_line = 0;  // a code line with carets under it, outside any traceback
  std::string m_caret_code;
  int m_dynamo_message_line = 0;
  std::string m_dynamo_message;
  // faulthandler's `Current thread 0x... (most recent call first):`: the crash its frames belong
  // to.
  int m_faulthandler_event = -1;
  bool m_faulthandler_line = false;  // the current line was one of its frames  // a Dynamo error
                                     // was already read from its message's footer
  int m_detail_event = -1;           // the exception whose message the next lines may continue
  int m_detail_blank = 0;
  int m_last_exception = -1;    // the last Python exception: the one that ended the run
  int m_last_error = -1;        // the last error event, for the native frames after it
  int m_last_crash = -1;        // the last crash signal, for a debugger's backtrace after it
  int m_diagnostic_event = -1;  // the compiler diagnostic whose excerpt may follow
  int m_diagnostic_line = 0;
  std::optional<LogEvent> m_pending_bare;    // a bare `error:` waiting for its source excerpt
  std::optional<LogEvent> m_unclaimed_bare;  // the first one no excerpt followed
  bool m_saw_compiler = false;
  std::string m_include_root;  // the outermost file of the last `In file included from` chain
  int m_include_line = 0;
  std::string_view m_raw;    // the line as the log holds it (m_line: without its prefix)
  int m_version_event = -1;  // a missing symbol version whose `(required by` may follow
  int m_draft_event = -1;    // a draft_export report item whose frames may follow
  std::unordered_map<std::string, std::string> m_descriptors;  // strace: descriptor -> opened path
  std::array<std::pair<int, std::string>, 4> m_recent{};  // the last lines, as the log holds them
  std::size_t m_recent_next = 0;
  bool m_line_had_event = false;  // the current line gave an event already
  bool m_exception_line = false;  // the current line was the exception line that ends a traceback
  bool m_message_line = false;    // the current line continued an exception's message
  int m_statement_event = -1;     // an event whose sentence continues on the next lines
  std::size_t m_index_check =
      0;  // the last C++ index-check event and its line, for exception_from()
  int m_index_check_line = 0;
};

}  // namespace aoti::parsers::logs
