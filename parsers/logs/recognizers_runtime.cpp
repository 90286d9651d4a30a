// Recognizers of the AOTI runtime's own error lines: a failed API call in the generated wrapper,
// `Error:` and shim exceptions, c10's and gdb's native frames.
#include "parsers/logs/scanner.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "util/text.hpp"
#include "util/utf8.hpp"

namespace aoti::parsers::logs {

// run_func_( ... ) API call failed at /pytorch/.../model_container_runner.cpp, line 144
void Scanner::api_call_failed(std::uint64_t) {
  const auto at = m_line.find("API call failed at ");
  auto call = util::trim(m_line.substr(0, at));
  // Drop whatever the program printed before the call ("cpu error: RuntimeError ", terminate's
  // "what():  "): the call starts at the identifier before its first parenthesis.
  if (call.starts_with("what():")) call = util::trim(call.substr(7));
  if (const auto paren = call.find('('); paren != std::string_view::npos) {
    auto start = paren;
    while (start > 0 && (util::is_identifier_char(call[start - 1]) || call[start - 1] == ':' ||
                         call[start - 1] == '.'))
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

void Scanner::runtime_line(std::uint64_t found) {
  const auto line = util::trim(m_line);
  auto e = event(LogEventKind::runtime_error);
  if ((found & a_raised_from) && line.starts_with("Exception raised from ")) {
    // c10: `Exception raised from make_tensor at aten/src/ATen/Functions.cpp:25 (most recent call
    // first):` right under the error it locates is a line of that error (its frames follow); alone,
    // the location states no error of its own.
    if (m_last_error >= 0) {
      auto& error = m_events[static_cast<std::size_t>(m_last_error)];
      if (static_cast<int>(error.detail.size()) == m_number - error.where.line - 1 &&
          m_number - error.where.line <= 2 && m_detail_event != m_last_error)
        error.detail.push_back(util::clean_text(m_raw, k_max_text));
    }
    return;
  } else if (found & a_shim_exception) {
    // `[E1119 16:44:43.826 shim_common.cpp:403] Exception in aoti_torch: Specified device ...`
    e.problem = "shim exception";
    e.subject = "aoti_torch";
    e.value =
        util::clean_text(util::trim(util::after(m_line, "Exception in aoti_torch: ")), k_max_field);
    find_glog_location(m_line, e.source_file, e.source_line);
  } else if ((found & a_device_guard) &&
             line.find("GuardImpl initialized with non-") != std::string_view::npos) {
    // c10's device guard of one device type given another: `CUDAGuardImpl initialized with non-CUDA
    // DeviceType: cpu`.
    e.problem = "device guard";
    e.value = util::clean_text(line, k_max_field);
  } else if ((found & a_unknown_exception) && line.starts_with("Unknown exception occurred.")) {
    e.problem = "unknown exception";
  } else if ((found & a_error_prefix) &&
             line.starts_with("Error: Process completed with exit code")) {
    // GitHub Actions' annotation of a step that exited nonzero: the step's status, not an error
    // the runtime stated.
    e.problem = "exit status";
    e.value = util::clean_text(util::trim(line.substr(7)), k_max_field);
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

// The OpenMP runtime's own errors (LLVM's libomp and Intel's libiomp5 print them alike):
// `OMP: Error #15: Initializing libomp.dylib, but found libomp.dylib already initialized.` means a
// second copy of the runtime started in a process that has one.
void Scanner::openmp_error(std::uint64_t) {
  if (const auto layer = m_line.find("MKL_THREADING_LAYER="); layer != std::string_view::npos) {
    // mkl-service: `Error: mkl-service + Intel(R) MKL: MKL_THREADING_LAYER=INTEL is incompatible
    // with libgomp.so.1 library.`: MKL's threading layer brings an OpenMP runtime (INTEL:
    // libiomp5) other than the one the process already loaded.
    const auto setting = util::first_word(m_line.substr(layer));
    const auto loaded = util::between(m_line.substr(layer), " is incompatible with ", " library");
    if (loaded.empty()) return;
    auto e = event(LogEventKind::runtime_error);
    e.source_file = "MKL";
    e.problem = "threading layer conflict";
    e.subject = util::clean_text(setting, k_max_field);
    e.expected = util::clean_text(loaded, k_max_field);
    e.value = util::clean_text(util::trim(m_line), k_max_field);
    const auto key = e.problem + "|" + e.subject + "|" + e.expected;
    add(std::move(e), key);
    return;
  }
  // `OMP: Error #15: ...`, or the same message with its start lost (a paste that kept `P: Error
  // #15: Initializing libomp.dylib, but found libiomp5.dylib already initialized.`).
  auto at = m_line.find("OMP: Error #");
  if (at == std::string_view::npos) {
    at = m_line.find("Error #");
    if (at == std::string_view::npos ||
        m_line.find(" already initialized") == std::string_view::npos ||
        m_line.find("Initializing ") == std::string_view::npos)
      return;
  }
  const auto message = util::trim(m_line.substr(at));
  auto e = event(LogEventKind::runtime_error);
  e.source_file = "OpenMP runtime";
  e.value = util::clean_text(util::trim(util::after(message, ": ")), k_max_field);
  const auto hash = message.find('#');
  const auto number = util::digits_at(message, hash + 1);
  e.source_line = util::to_int(number).value_or(0);
  const auto starting = util::between(message, "Initializing ", ", but found ");
  const auto running = util::between(message, ", but found ", " already initialized");
  if (!starting.empty() && !running.empty()) {
    e.problem = "duplicate OpenMP runtime";
    e.subject = util::clean_text(starting, k_max_field);  // the copy that was starting
    e.expected = util::clean_text(running, k_max_field);  // the copy already running
  } else {
    e.problem = "OpenMP runtime error";
    e.subject = util::clean_text(message.substr(0, message.find(':', hash)), k_max_field);
  }
  const auto key = fmt::format("{}|{}|{}", e.problem, e.subject, e.value);
  add(std::move(e), key);
}

// torch/cuda/__init__.py's _check_capability(): `NVIDIA GeForce RTX 5090 with CUDA capability
// sm_120 is not compatible with the current PyTorch installation.`, then the capabilities the build
// supports on the next line. The installed torch has no kernels for this GPU: every CUDA op fails
// (`no kernel image is available for execution on the device`).
void Scanner::gpu_capability(std::uint64_t) {
  if (m_line.find(" is not compatible with the current PyTorch installation") ==
      std::string_view::npos)
    return;
  auto message = util::trim(m_line);
  if (message.starts_with("UserWarning:")) message = util::trim(message.substr(12));
  auto e = event(LogEventKind::runtime_error);
  e.problem = "GPU not supported by this torch build";
  e.source_file = "torch/cuda/__init__.py";
  e.subject = util::clean_text(util::identifier_at(message, message.find("sm_")), k_max_field);
  e.value = util::clean_text(message, k_max_field);
  const auto key = e.problem + "|" + e.subject;
  const LogEvent* added = add(std::move(e), key);
  // Its next line, `The current PyTorch install supports CUDA capabilities sm_50 ... sm_90.`.
  if (appended(added)) m_statement_event = index_of(added);
}

// glog's `[E1119 16:44:43.826121120 shim_common.cpp:403] ...`: the file and line in the prefix.
void Scanner::find_glog_location(std::string_view line, std::string& file, int& number) {
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
void Scanner::native_frame_line(std::uint64_t found) {
  const auto line = util::trim(m_line);
  if (!(found & a_c10_frame) &&
      !(line.size() > 2 && line[0] == '#' && line[1] >= '0' && line[1] <= '9') &&
      !(line.ends_with(']') && line.find(" [0x") != std::string_view::npos))
    return;
  const auto frame = native_frame(m_line);
  if (!frame) return;
  int target = frame->from_gdb && m_last_crash >= 0 ? m_last_crash : m_last_error;
  const bool innermost = frame->from_gdb && line.starts_with("#0 ");
  if (target < 0 && innermost && frame->module.find(".so") != std::string::npos) {
    // gdb's backtrace of a core or a stopped process, pasted without the signal line above it:
    // the backtrace itself states that the process died there. Only a host frame in a library
    // (`from /x/libspconv.so`): cuda-gdb's `#0  kernel<<<...>>> () at x.py:45` is a GPU thread,
    // which the GPU core reports.
    auto e = event(LogEventKind::segfault);
    e.problem = "backtrace only";
    e.subject = "a debugger's backtrace";
    e.value = "the log shows a debugger's backtrace but no signal or error line before it";
    if (add(std::move(e), "backtrace only")) target = m_last_crash;
  }
  if (target < 0) return;
  auto& frames = m_events[static_cast<std::size_t>(target)].frames;
  // The same backtrace printed again (`bt` after gdb's first `#0` line): read it from the top.
  const auto text = line_text(m_raw);
  if (innermost && std::any_of(frames.begin(), frames.end(), [&](const model::LogFrame& f) {
        return f.native && util::trim(f.text) == util::trim(text);
      }))
    std::erase_if(frames, [](const model::LogFrame& f) { return f.native; });
  if (frames.size() >= k_max_frames) return;
  frames.push_back({util::clean_text(frame->module, k_max_field), 0,
                    util::clean_text(frame->symbol, k_max_field), "", "", m_number, true, text});
}

// A debugger's list of the libraries the process has loaded: lldb's `image list`
// (`[  2] F53B1E01-AF16-... 0x0000000106754000 /x/torch/lib/libomp.dylib`) and gdb's
// `info sharedlibrary` (`0x00007ffff7fc5090  0x00007ffff7fee335  Yes  /lib64/ld-linux.so.2`).
// Which copies of a library one process held is what a conflict between two of them needs.
void Scanner::module_list_line(std::uint64_t) {
  const auto line = util::trim(m_line);
  std::string_view path;
  if (line.starts_with('[')) {
    const auto close = line.find("] ");
    if (close == std::string_view::npos || close > 8 ||
        util::trim(line.substr(1, close - 1)).find_first_not_of("0123456789") !=
            std::string_view::npos)
      return;
    const auto address = line.find(" 0x", close);
    if (address == std::string_view::npos) return;
    const auto after_address = line.find(' ', address + 1);
    if (after_address == std::string_view::npos) return;  // the address ends the line
    path = util::trim(line.substr(after_address));
  } else if (line.starts_with("0x")) {
    auto yes = line.find("  Yes ");
    if (yes == std::string_view::npos) yes = line.find("  No ");
    if (yes == std::string_view::npos) return;
    const auto after_yes = line.find(' ', yes + 2);
    if (after_yes == std::string_view::npos) return;
    path = util::trim(line.substr(after_yes));
    if (path.starts_with("(*)")) path = util::trim(path.substr(3));
  } else {
    return;
  }
  if (!path.starts_with('/') || path.find(' ') != std::string_view::npos ||
      (path.find(".so") == std::string_view::npos && !path.ends_with(".dylib")))
    return;
  auto e = event(LogEventKind::loaded_module);
  e.subject = util::clean_text(path, k_max_field);
  const auto key = e.subject;
  add(std::move(e), key);
}

// A shell's trace of the command it runs (`set -x`: `+ cmake-out/aoti_run model.so -z tok.model -l
// 3`), when the command is a program given a model file (.so, .pt2, .pte): a runner's run. The
// lines it printed, up to the next traced command, are kept as its output.
void Scanner::shell_trace(std::uint64_t) {
  const auto line = util::trim(m_line);
  if (!line.starts_with("+ ")) {
    if (m_program_run < 0) return;
    auto& run = m_events[static_cast<std::size_t>(m_program_run)];
    if (run.detail.size() >= 8 || m_number - run.where.line > 40)
      m_program_run = -1;
    else if (!line.empty())
      run.detail.push_back(util::clean_text(m_raw, k_max_text));
    return;
  }
  m_program_run = -1;
  const auto command = util::trim(line.substr(2));
  const auto program = util::first_word(command);
  // Builtins and assignments are the script's own steps, not a program it runs.
  if (program.empty() || program.find('=') != std::string_view::npos || program == "echo" ||
      program == "printf" || program == "cd" || program == "export" || program == "set" ||
      program == "[" || program == "[[" || program == "test" || program == "python" ||
      program.starts_with("python3"))
    return;
  std::string_view model;
  for (std::size_t at = program.size(); at < command.size();) {
    const auto start = command.find_first_not_of(' ', at);
    if (start == std::string_view::npos) break;
    const auto end = std::min(command.find(' ', start), command.size());
    const auto word = command.substr(start, end - start);
    if (word.ends_with(".so") || word.ends_with(".pt2") || word.ends_with(".pte")) {
      model = word;
      break;
    }
    at = end;
  }
  if (model.empty()) return;
  auto e = event(LogEventKind::program_run);
  e.subject = util::clean_text(program, k_max_field);
  e.value = util::clean_text(model, k_max_field);
  const auto key = fmt::format("run|{}|{}", m_number, e.subject);
  const LogEvent* added = add(std::move(e), key);
  m_program_run = appended(added) ? index_of(added) : -1;
}

}  // namespace aoti::parsers::logs
