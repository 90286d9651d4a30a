// Recognizers of Python exceptions: tracebacks with their frames and the message lines after them,
// exception lines a paste kept alone, FX's `While executing`, and unittest's failed tests.
#include "parsers/logs/scanner.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "torch/error_messages.hpp"
#include "util/text.hpp"
#include "util/utf8.hpp"

namespace aoti::parsers::logs {

// Frames are indented; the first line that is not is `Type: message`. Returns whether this line
// was that exception line.
bool Scanner::continue_traceback() {
  auto body = m_line;
  if (!m_traceback_prefix.empty() && body.starts_with(m_traceback_prefix))
    body.remove_prefix(m_traceback_prefix.size());
  if (const auto frame = python_frame(body)) {
    push_frame(m_frames, *frame);
    return false;
  }
  if (body.empty() || body[0] == ' ' || body[0] == '\t') {
    set_code(m_frames, body);
    return false;
  }
  // IPython's listing marks the frame's current line: `--> 216         raise RuntimeError(...)`.
  if (body.starts_with("--") && !m_frames.empty()) {
    const auto arrow = body.find_first_not_of('-');
    if (arrow != std::string_view::npos && body[arrow] == '>') {
      const auto rest = util::trim(body.substr(arrow + 1));
      const auto number = util::digits_at(rest, 0);
      if (!number.empty()) {
        auto& frame = m_frames.back();
        if (frame.line == 0) frame.line = util::to_int(number).value_or(0);
        if (frame.code.empty()) {
          frame.code = util::clean_text(util::trim(rest.substr(number.size())), k_max_field);
          frame.code_text = line_text(m_raw);
          frame.code_line = m_number;
        }
        return false;
      }
    }
  }
  m_in_traceback = false;
  // pytest marks the exception's lines with `E   `: `E   RuntimeError: operator x does not exist`.
  if (body.starts_with("E   ") && body.size() > 4 && body[4] != ' ') body.remove_prefix(4);
  const auto type = exception_type_at_start(body);
  if (type.empty()) {
    // The traceback stops before its exception line. Frames may go on after this line (a paste
    // that lost its indentation); if they do not, the frames are all the log shows of the error.
    if (!m_frames.empty())
      m_cut_frames = std::move(m_frames), m_cut_line = m_number, m_cut_header = m_traceback_header;
    m_frames.clear();
    return false;
  }
  m_cut_frames.clear();
  const std::size_t end = type.size();
  auto e = event(LogEventKind::python_exception);
  e.subject = util::clean_text(type, k_max_field);
  e.value = util::clean_text(util::trim(body.substr(std::min(end + 1, body.size()))), k_max_field);
  e.frames = std::move(m_frames);
  m_frames.clear();
  classify_exception(e, body);
  e.user_frame = user_frame_of(e.frames);
  set_raised_in(e);
  link_to_chain(e);
  const auto key = e.subject + "|" + e.value;
  exception_added(add(std::move(e), key));
  return true;
}

// Python's words between the exceptions of a chain; the next exception is linked to the last one.
void Scanner::chain_line() {
  const auto line = util::trim(m_line);
  model::ExceptionLink link = model::ExceptionLink::none;
  if (line.starts_with("The above exception was the direct cause of the following exception"))
    link = model::ExceptionLink::direct_cause;
  else if (line.starts_with("During handling of the above exception, another exception occurred"))
    link = model::ExceptionLink::during_handling;
  if (link == model::ExceptionLink::none) return;
  commit_cut_traceback();
  m_pending_link = link;
  m_chain_from = m_last_exception;
}

void Scanner::link_to_chain(LogEvent& e) {
  if (m_pending_link == model::ExceptionLink::none) return;
  e.link = m_pending_link;
  if (m_chain_from >= 0)
    e.chained_from_line = m_events[static_cast<std::size_t>(m_chain_from)].where.line;
  m_pending_link = model::ExceptionLink::none;
  m_chain_from = -1;
}

// The innermost frame that says whose code raised it: Python's own modules (subprocess.py raising
// CalledProcessError for the compiler torch ran) are where, not who.
// Without frames, torch's own exception classes still say who raised them (Unsupported: Dynamo).
void Scanner::set_raised_in(LogEvent& e) const {
  for (auto frame = e.frames.rbegin(); frame != e.frames.rend(); ++frame) {
    if (frame->native) continue;
    const auto subsystem = torch::subsystem_of(frame->file, frame->function);
    if (subsystem == torch::Subsystem::python_runtime || subsystem == torch::Subsystem::unknown)
      continue;
    e.raised_in = subsystem;
    return;
  }
  e.raised_in = torch::subsystem_of_exception(e.subject);
}

// The innermost torch frames turn a symbolic value into a Python one: a guard is being evaluated
// (`bool(sym)` -> SymNode.bool_ -> guard_bool -> evaluate_sym_node / evaluate_expr). Backed
// guards evaluate to their hint; an error raised there is a guard on a value only the data decides.
bool Scanner::evaluates_guard(const std::vector<model::LogFrame>& frames) {
  for (auto frame = frames.rbegin(); frame != frames.rend(); ++frame) {
    if (frame->native) continue;
    const auto subsystem = torch::subsystem_of(frame->file, frame->function);
    if (subsystem == torch::Subsystem::python_runtime) continue;
    if (subsystem != torch::Subsystem::symbolic_shapes) return false;
    const std::string& f = frame->function;
    if (f == "evaluate_sym_node" || f == "evaluate_expr" || f == "_evaluate_expr" ||
        f == "guard_bool" || f == "guard_int" || f == "guard_float" || f == "evaluate" ||
        f == "_make_data_dependent_error")
      return true;
  }
  return false;
}

// The frames of a traceback cut before its exception line become `e`'s, which is placed and quoted
// at its innermost frame.
void Scanner::take_cut_frames(LogEvent& e) {
  e.where.line = m_cut_frames.back().log_line;
  e.text = m_cut_frames.back().text;
  e.frames = std::move(m_cut_frames);
  m_cut_frames.clear();
  e.user_frame = user_frame_of(e.frames);
}

// A traceback whose exception line the log never shows: one exception event without a type or
// message, at its last frame, whose frames say where it was raised.
void Scanner::commit_cut_traceback() {
  if (m_in_traceback && !m_frames.empty()) {
    m_cut_frames = std::move(m_frames);
    m_frames.clear();
    m_in_traceback = false;
    m_cut_line = m_number;
    m_cut_header = m_traceback_header;
  }
  // One frame line with no `Traceback` above it says too little to be an error of its own.
  if (!m_cut_header && m_cut_frames.size() < 2) m_cut_frames.clear();
  if (m_cut_frames.empty()) return;
  auto e = event(LogEventKind::python_exception);
  e.complete = false;
  take_cut_frames(e);
  set_raised_in(e);
  if (evaluates_guard(e.frames)) e.problem = "data-dependent guard";
  link_to_chain(e);
  const auto& last = e.frames.back();
  const auto key = fmt::format("cut|{}|{}|{}", last.file, last.line, e.frames.size());
  const LogEvent* added = add(std::move(e), key);
  if (added) m_last_exception = index_of(added);
}

// What an exception message states that other events also report: checks use it to route.
void Scanner::classify_exception(LogEvent& e, std::string_view body) {
  if (const auto problem = torch::problem_in_message(body); !problem.empty()) {
    e.problem = std::string(problem);
    if (problem == "data-dependent guard") m_saw_data_dependent = true;
    if (problem == "size/stride assert") e.op = checked_op();
  } else if (load_failure(body)) {
    e.problem = "load failure";
  } else if (const auto type = e.subject.substr(e.subject.rfind('.') + 1);
             (type == "ImportError" || type == "OSError") && !shared_object_in(body).empty()) {
    // The import system or ctypes failing on a compiled library it names (an extension's
    // `common_ops.cpython-312-x86_64-linux-gnu.so`), without dlerror's words.
    e.problem = "load failure";
  } else if (type == "ImportError" || type == "ModuleNotFoundError") {
    // An installed package's own code importing a part of itself that is not there (`from
    // torchao.prototype import mxfp8_cuda` in torchao/.../kernels.py: `cannot import name
    // 'mxfp8_cuda' from 'torchao.prototype'`): the install lacks a module it should hold.
    std::string_view package = util::between(body, "' from '", "'");
    if (package.empty()) {
      const auto named = util::between(body, "No module named '", "'");
      package = named.substr(0, named.rfind('.') == std::string_view::npos ? 0 : named.rfind('.'));
    }
    const auto top = package.substr(0, package.find('.'));
    const std::string folder = "-packages/" + std::string(top) + "/";
    if (!top.empty() && !e.frames.empty() && e.frames.back().file.find(folder) != std::string::npos)
      e.problem = "own module missing";
  }
}

// The op named by the generated code's `assert_size_stride(buf, (sizes), (strides), 'op')` on the
// line above the exception (a frame's code line, or the line a paste kept).
std::string Scanner::checked_op() const {
  const std::string_view line = line_above();
  const auto call = line.find("assert_size_stride(");
  if (call == std::string_view::npos) return {};
  const auto close = line.rfind('\'');
  const auto open = close == std::string_view::npos ? close : line.rfind('\'', close - 1);
  if (open == std::string_view::npos || open < call) return {};
  return util::clean_text(line.substr(open + 1, close - open - 1), k_max_field);
}

void Scanner::exception_added(const LogEvent* e) {
  if (!e) return;
  m_last_exception = index_of(e);
  if (appended(e)) m_detail_event = index_of(e), m_detail_blank = 0;
}

void Scanner::push_frame(std::vector<model::LogFrame>& frames, const PythonFrame& frame) {
  model::LogFrame read{util::clean_text(frame.file, k_max_field),
                       frame.line,
                       util::clean_text(frame.function, k_max_field),
                       "",
                       "",
                       m_number,
                       false,
                       line_text(m_raw)};
  // Frames are kept outermost first; TorchScript prints its own innermost first.
  if (frame.innermost_first) {
    if (frames.size() >= k_max_frames) return;
    frames.insert(frames.begin(), std::move(read));
    return;
  }
  if (frames.size() >= k_max_frames) frames.erase(frames.begin());
  frames.push_back(std::move(read));
}

// The code line under a frame (`    gm = _export_to_torch_ir(`), not the caret line under it.
void Scanner::set_code(std::vector<model::LogFrame>& frames, std::string_view body) {
  const auto code = util::trim(body);
  if (frames.empty() || code.empty() || code.find_first_not_of("^~ ") == std::string_view::npos)
    return;
  // IPython's numbered listing around a frame's line (`    214 def f(...)`): context, not the
  // line that ran (that one is marked `-->`).
  if (const auto number = util::digits_at(code, 0);
      !number.empty() && code.size() > number.size() && code[number.size()] == ' ')
    return;
  auto& frame = frames.back();
  if (frame.native || !frame.code.empty() || frame.log_line != m_number - 1) return;
  frame.code = util::clean_text(code, k_max_field);
  // The line as the log holds it, only where a prefix makes it differ (quotes must be exact).
  if (util::trim(m_raw).size() != code.size()) frame.code_text = line_text(m_raw);
}

int Scanner::user_frame_of(const std::vector<model::LogFrame>& frames) {
  for (std::size_t i = frames.size(); i-- > 0;)
    if (!frames[i].native && !is_framework_file(frames[i].file)) return static_cast<int>(i);
  return -1;
}

// Traceback (most recent call last): whatever is before it on the line prefixes its frames.
void Scanner::start_traceback(std::uint64_t) {
  commit_cut_traceback();
  m_in_traceback = true;
  m_traceback_header = true;
  m_traceback_prefix = m_line.substr(0, m_line.find("Traceback "));
  m_frames.clear();
  // Words before `Traceback` on the line right after an exception's message: the traceback is part
  // of that message (a wrapper quoting the error it caught), and its exception is what it wraps.
  if (m_pending_link == model::ExceptionLink::none && !util::trim(m_traceback_prefix).empty() &&
      m_last_exception >= 0) {
    const auto& last = m_events[static_cast<std::size_t>(m_last_exception)];
    if (last.where.line + static_cast<int>(last.detail.size()) + 1 == m_number) {
      m_pending_link = model::ExceptionLink::inside_message;
      m_chain_from = m_last_exception;
    }
  }
  m_detail_event = -1;
}

// A frame or an exception line outside any traceback and any exception's message.
void Scanner::exception_outside_traceback(std::uint64_t found) {
  if (m_in_traceback || m_exception_line || m_message_line || m_faulthandler_line) return;
  if (!(found & (a_python_frame | a_cut_frame)) || !start_traceback_at_frame()) bare_exception();
}

// A log that starts inside a traceback (a paste that lost its first lines): its first frame starts
// it.
bool Scanner::start_traceback_at_frame() {
  const auto frame = python_frame(m_line);
  if (!frame) return false;
  const auto indent = m_line.find("File \"");
  // Python indents frames by two spaces under `Traceback`; whatever is before that is a prefix. A
  // frame cut at its start has none.
  m_traceback_prefix = indent == std::string_view::npos
                           ? ""
                           : std::string(m_line.substr(0, indent >= 2 ? indent - 2 : 0));
  m_in_traceback = true;
  m_frames.clear();
  m_traceback_header = false;
  // Frames resuming right after the line that interrupted a traceback continue it.
  if (!m_cut_frames.empty() && m_number - m_cut_line <= 2)
    m_frames = std::move(m_cut_frames), m_traceback_header = m_cut_header;
  else
    commit_cut_traceback();
  m_cut_frames.clear();
  m_detail_event = -1;
  push_frame(m_frames, *frame);
  return true;
}

// faulthandler (`python -X faulthandler`, or a fatal error) prints each thread's Python stack
// after the signal: `Current thread 0x00007f95ab528740 (most recent call first):` then frames,
// innermost first. The current thread's frames belong to the crash printed before it.
void Scanner::faulthandler_stack(std::uint64_t) {
  const auto line = util::trim(m_line);
  if (!line.starts_with("Current thread ") && !line.starts_with("Stack (most recent call first)"))
    return;
  m_faulthandler_event = m_last_crash >= 0 ? m_last_crash : m_last_error;
}

bool Scanner::continue_faulthandler_stack() {
  const auto frame = python_frame(m_line);
  if (!frame) {
    m_faulthandler_event = -1;
    return false;
  }
  auto& e = m_events[static_cast<std::size_t>(m_faulthandler_event)];
  // Python frames are kept outermost first: each next one is further out.
  std::vector<model::LogFrame> outer;
  push_frame(outer, *frame);
  if (e.frames.size() < k_max_frames) e.frames.insert(e.frames.begin(), std::move(outer.front()));
  e.user_frame = user_frame_of(e.frames);
  set_raised_in(e);
  return true;
}

// Dynamo ends the message of every error it raises with a footer (`Set TORCHDYNAMO_VERBOSE=1 for
// the internal stack trace ...`, older torch: `Set TORCH_LOGS="+dynamo" and TORCHDYNAMO_VERBOSE=1
// for more information` and `You can suppress this exception and fall back to eager`). A footer
// without its exception above it (a paste that kept only the end) is still a Dynamo error: its
// frames, if the log shows some, are the user code it was tracing.
void Scanner::dynamo_footer(std::uint64_t) {
  if (m_message_line || m_exception_line || m_saw_dynamo_footer) return;
  for (auto e = m_events.rbegin(); e != m_events.rend(); ++e)
    if (e->kind == LogEventKind::python_exception && e->complete) return;
  m_saw_dynamo_footer = true;
  if (m_in_traceback && !m_frames.empty()) m_cut_frames = std::move(m_frames), m_frames.clear();
  m_in_traceback = false;
  auto e = event(LogEventKind::python_exception);
  e.complete = false;
  e.raised_in = torch::Subsystem::dynamo;
  if (!m_cut_frames.empty()) take_cut_frames(e);
  // The message above its `from user code:` section: the error, without its type line.
  if (m_dynamo_message_line > 0 && m_number - m_dynamo_message_line <= 64) {
    e.complete = true;
    e.where.line = m_dynamo_message_line;
    e.text = line_text(m_dynamo_message);
    e.value = util::clean_text(util::trim(strip_log_prefix(m_dynamo_message)), k_max_field);
  }
  link_to_chain(e);
  const LogEvent* added = add(std::move(e), "dynamo footer");
  if (added) m_last_exception = index_of(added);
}

// Dynamo's `from user code:` outside any exception's message: the nearest line with text above it
// (within three) is the end of the message whose exception line the paste lost.
void Scanner::from_user_code(std::uint64_t) {
  if (m_detail_event >= 0 || m_message_line || util::trim(m_line) != "from user code:") return;
  for (int number = m_number - 1; number >= m_number - 3 && number > 0; --number) {
    const auto text = recent_line(number);
    const auto body = util::trim(strip_log_prefix(text));
    if (body.empty()) continue;
    if (python_frame(body) || body.starts_with("Traceback ")) return;
    m_dynamo_message_line = number;
    m_dynamo_message = std::string(text);
    return;
  }
}

// Python 3.11+'s carets under the expression of a frame's code line (`^^^^`, `~~~^^^`): outside a
// traceback, the code line above is what a paste kept of one.
void Scanner::caret_line(std::uint64_t) {
  if (m_in_traceback || m_caret_code_line > 0) return;
  const auto line = util::trim(m_line);
  if (line.empty() || (line.front() != '^' && line.front() != '~') ||
      line.find('^') == std::string_view::npos ||
      line.find_first_not_of("^~") != std::string_view::npos)
    return;
  const auto above = line_above();
  if (util::trim(strip_log_prefix(above)).empty()) return;
  m_caret_code_line = m_number - 1;
  m_caret_code = std::string(above);
}

// Dynamo's log of a graph break (torch.compile goes on, the region splits): `Graph break: from user
// code at:` (2.8+) or `Graph break in user code at /x.py:12` (2.5+), then the user's frames. The
// frames after it are read as the message's (continue_detail).
void Scanner::graph_break(std::uint64_t) {
  const auto line = util::trim(m_line);
  if (!line.starts_with("Graph break: from user code at") &&
      !line.starts_with("Graph break in user code at "))
    return;
  if (m_detail_event >= 0 || m_in_traceback) return;
  auto e = event(LogEventKind::python_exception);
  e.value = util::clean_text(line, k_max_field);
  e.raised_in = torch::Subsystem::dynamo;
  e.problem = "graph break";
  const auto key = fmt::format("graph break|{}", m_number);
  exception_added(add(std::move(e), key));
}

// The lines after an exception line that continue its message, until the next traceback, the next
// log record, or three blank lines. Returns whether this line was one of them.
bool Scanner::continue_detail(std::uint64_t found) {
  auto& e = m_events[static_cast<std::size_t>(m_detail_event)];
  const auto body = m_line;
  const bool stop = (found & a_traceback) ||
                    body.starts_with("The above exception was the direct cause") ||
                    body.starts_with("During handling of the above exception") ||
                    is_log_record_start(body) || e.detail.size() >= k_max_detail_lines ||
                    static_cast<int>(e.detail.size()) != m_number - e.where.line - 1;
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
  note_explanation(e, body, m_number);
  // A message whose first line is a wrapper's (`RuntimeError when making fake tensor call`) states
  // its failure further down.
  if (e.problem.empty()) classify_exception(e, body);
  // Dynamo's `from user code:` frames: the model line that failed to trace.
  if (const auto frame = python_frame(body)) {
    push_frame(e.frames, *frame);
    e.user_frame = user_frame_of(e.frames);
  } else {
    set_code(e.frames, body);
  }
  return true;
}

// Dynamo's graph-break record: `  Explanation: <text>` under the break's type.
void Scanner::note_explanation(LogEvent& e, std::string_view body, int number) {
  const auto text = util::trim(body);
  if (!e.explanation.empty() || !text.starts_with("Explanation: ")) return;
  e.explanation = util::clean_text(text.substr(13), k_max_field);
  e.explanation_line = number;
}

// The message ends: blank lines before whatever stopped it are not part of it.
void Scanner::end_detail(LogEvent& e) {
  while (!e.detail.empty() && util::trim(e.detail.back()).empty()) e.detail.pop_back();
  m_detail_event = -1;
}

// `V0815 19:38:37.056000 8614645568 torch/...] ...` (torch's logging), `[E1119 16:44:43.826 ...]`
// (glog).
bool Scanner::is_log_record_start(std::string_view line) {
  if (line.starts_with('[')) line.remove_prefix(1);
  if (line.size() < 6 || std::string_view("DIWEFV").find(line[0]) == std::string_view::npos)
    return false;
  return util::digits_at(line, 1).size() == 4 && line[5] == ' ';
}

// `RuntimeError: method->execute() failed with error 0x12` or `ImportError: ...` outside any
// traceback (a paste of the last line only), or an exception a program printed itself
// (`aot_compile failed: InductorError: ...`).
void Scanner::bare_exception() {
  const auto line = util::trim(m_line);
  const auto is_error_type = [](std::string_view type) {
    const auto last =
        type.substr(type.rfind('.') == std::string_view::npos ? 0 : type.rfind('.') + 1);
    return (last.ends_with("Error") && last != "Error") ||
           (last.ends_with("Exception") && last != "Exception") ||
           // torch's own classes, whatever their names end with (Dynamo's `Unsupported`)
           torch::subsystem_of_exception(type) != torch::Subsystem::unknown;
  };
  std::size_t start = 0;
  auto type = exception_type_at_start(line);
  if (type.empty() || !is_error_type(type)) {
    type = {};
    // After the program's own words: `<words>: <Type>: message`, the first two colons only.
    for (std::size_t colon = line.find(": "), n = 0; colon != std::string_view::npos && n < 2;
         colon = line.find(": ", colon + 2), ++n) {
      const auto candidate = exception_type_at_start(line.substr(colon + 2));
      if (!candidate.empty() && is_error_type(candidate) &&
          line.size() > colon + 2 + candidate.size()) {
        type = candidate, start = colon + 2;
        break;
      }
    }
  }
  // The exception's repr, as a program or logger prints a caught one: `NameError("Cannot access
  // global variable X from within @jit'ed function. ...")`.
  std::string_view repr_message;
  if (type.empty()) {
    const auto open = line.find("(\"") < line.find("('") ? line.find("(\"") : line.find("('");
    if (open != std::string_view::npos && open > 0) {
      const auto candidate = line.substr(0, open);
      if (exception_type_at_start(candidate) == candidate && is_error_type(candidate)) {
        type = candidate;
        repr_message = line.substr(open + 2);
        const char quote = line[open + 1];
        if (const auto close = repr_message.rfind(std::string{quote, ')'});
            close != std::string_view::npos)
          repr_message = repr_message.substr(0, close);
      }
    }
  }
  if (repr_message.empty() &&
      (type.empty() || line.size() <= start + type.size() || line[start + type.size()] != ':'))
    return;
  // A line that already said something more specific (`ImportError: x.so: undefined symbol: f`).
  if (m_line_had_event) return;
  auto e = event(LogEventKind::python_exception);
  e.subject = util::clean_text(type, k_max_field);
  const auto body = line.substr(start);
  e.value = util::clean_text(
      repr_message.empty() ? util::trim(body.substr(type.size() + 1)) : repr_message, k_max_field);
  classify_exception(e, body);
  if (start == 0) take_orphan_code(e);
  set_raised_in(e);
  link_to_chain(e);
  const auto key = e.subject + "|" + e.value;
  const LogEvent* added = add(std::move(e), key);
  if (!added) return;
  m_last_exception = index_of(added);
  if (start == 0 && appended(added)) m_detail_event = index_of(added), m_detail_blank = 0;
}

// A statement on the line right above an exception that has no traceback: the code line of the
// frame that raised, whose `File` line the paste lost. Only a line shaped like Python code (a
// `return` / `raise` / `assert`, an assignment, or a call), not prose or another tool's output.
void Scanner::take_orphan_code(LogEvent& e) const {
  const std::string_view text = line_above();
  const auto code = util::trim(strip_log_prefix(text));
  if (code.empty() || code.size() > 400) return;
  const bool statement = code.starts_with("return ") || code.starts_with("raise ") ||
                         code.starts_with("assert ") || code.starts_with("yield ");
  constexpr std::string_view k_name_chars =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.[]";
  // `out = f(x)`: the call on the right of an assignment to a name.
  auto rest = code;
  if (const auto assign = code.find(" = ");
      assign != std::string_view::npos && assign > 0 &&
      code.substr(0, assign).find_first_not_of(k_name_chars) == std::string_view::npos)
    rest = code.substr(assign + 3);
  const auto open = rest.find('(');
  const bool call = open != std::string_view::npos && open > 0 && rest.ends_with(")") &&
                    rest.substr(0, open).find_first_not_of(k_name_chars) == std::string_view::npos;
  if (!statement && !call) return;
  e.orphan_code_line = m_number - 1;
  e.orphan_code = line_text(text);
}

// torch.fx's Interpreter adds `While executing %add_ : [...] = call_function[target=...](...)`
// under an exception raised while it ran a graph node. Without the exception's own line (a paste
// that kept only its message), the non-blank line above is that message.
void Scanner::while_executing(std::uint64_t) {
  if (m_message_line || m_exception_line) return;
  if (!util::trim(m_line).starts_with("While executing %")) return;
  if (m_last_exception >= 0 &&
      m_number - m_events[static_cast<std::size_t>(m_last_exception)].where.line <= 3)
    return;
  int message_line = 0;
  std::string message;
  // The message: the nearest line above, within three, with text after the log prefix; for a
  // graph-break record, the break's type on the line above its `Explanation:`.
  const auto text_at = [&](int number) { return strip_log_prefix(recent_line(number)); };
  for (int number = m_number - 1; number >= m_number - 3 && message_line == 0; --number)
    if (!util::trim(text_at(number)).empty()) message_line = number;
  if (message_line > 1 && util::trim(text_at(message_line)).starts_with("Explanation: ") &&
      !util::trim(text_at(message_line - 1)).empty())
    --message_line;
  message = recent_line(message_line);
  if (message_line == 0) return;
  auto e = event(LogEventKind::python_exception);
  e.where.line = message_line;
  e.text = line_text(message);
  e.value = util::clean_text(util::trim(strip_log_prefix(message)), k_max_field);
  // The ring keeps the last lines in no fixed order: the message's further lines, in order.
  for (int number = message_line + 1; number < m_number; ++number)
    for (const auto& [at, text] : m_recent)
      if (at == number) {
        e.detail.push_back(util::clean_text(text, k_max_text));
        note_explanation(e, strip_log_prefix(text), number);
      }
  e.detail.push_back(util::clean_text(m_raw, k_max_text));
  const auto key = "|" + e.value;
  exception_added(add(std::move(e), key));
}

// unittest's summary of a failed test: `ERROR: test_x (module.Class.test_x)` (`FAIL:` for a failed
// assertion), the test whose run the errors around it belong to.
void Scanner::test_result(std::uint64_t) {
  const auto line = util::trim(m_line);
  std::string_view rest;
  if (line.starts_with("ERROR: test"))
    rest = line.substr(7);
  else if (line.starts_with("FAIL: test"))
    rest = line.substr(6);
  else
    return;
  const auto name = util::identifier_at(rest, 0);
  if (name.empty() || !rest.substr(name.size()).starts_with(" (") || !rest.ends_with(")")) return;
  auto e = event(LogEventKind::test_failure);
  e.subject = util::clean_text(name, k_max_field);
  e.value =
      util::clean_text(rest.substr(name.size() + 2, rest.size() - name.size() - 3), k_max_field);
  e.problem = line.starts_with("ERROR") ? "error" : "failure";
  const auto key = e.subject;
  add(std::move(e), key);
}

}  // namespace aoti::parsers::logs
