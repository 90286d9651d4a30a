// What logs (stderr, stdout, error logs) tell: one event per line or traceback that matters.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/location.hpp"
#include "torch/subsystem.hpp"

namespace aoti::model {

// How a Python exception relates to the one printed before it, as Python prints a chain:
// `The above exception was the direct cause of the following exception:` (`raise ... from`, its
// __cause__) or `During handling of the above exception, another exception occurred:`
// (__context__).
// How an exception is tied to the one printed before it: Python's chain words, or its traceback
// printed inside that exception's message (`SerializeError: ... Original exception Traceback (most
// recent call last):`), which makes the earlier one a wrapper of this one.
enum class ExceptionLink { none, direct_cause, during_handling, inside_message };
std::string_view to_string(ExceptionLink link);

enum class LogEventKind {
  input_check_error,  // Error: input_handles[0]: unmatched dtype, expected: 6(at::kFloat), but got:
                      // 5
  mixed_device_constants,        // Mixed-device constants ...
  tensors_on_different_devices,  // Expected all tensors to be on the same device ...
  pointer_on_host,    // The specified pointer resides on host memory ... (problem "blob on host":
                      // ATen's from_blob check; "tensor on host": a CUDA-tagged tensor whose memory
                      // is the host's)
  out_tensor_device,  // Expected out tensor to have device cuda:0, but got cpu instead
  api_call_failed,    // ... API call failed at <file>, line N
  triton_assert,   // an index assert that failed: Triton `Assertion `index out of bounds: 0 <= tmp4
                   // < 1000` failed.`, C++ `Error: index out of bounds: 0 <= tmp7 < 1000L`
  cuda_error,      // CUDA error: device-side assert triggered / illegal memory access ...
  terminate,       // terminate called after throwing an instance of '...'
  segfault,        // Segmentation fault (core dumped) / Fatal Python error: Segmentation fault
  deprecated_api,  // torch._export.aot_compile / aot_load
  export_specialized,  // You marked batch as dynamic but your code specialized it to be a constant
                       // (8)
  python_exception,    // torch.AcceleratorError: ... / RuntimeError: ... (last line of a traceback)
  compile_error,    // x.cpp:384:33: error: ... / fatal error: cuda.h: No such file ... / ld: cannot
                    // find -lcuda
  compile_command,  // the compiler command that failed (CppCompileError's `Command:`, an echoed g++
                    // / nvcc line)
  load_error,  // dlopen / ImportError / OSError: undefined symbol, cannot open shared object file,
               // ...
  runtime_error,  // the AOTI runtime's `Error: <what>`, the shim's `Exception in aoti_torch: ...`
  test_failure,   // unittest's `ERROR: test_x (module.Class.test_x)` / `FAIL: ...`: the test that
                  // failed
  loaded_module,  // a library a debugger lists as loaded in the process (lldb's `image list`,
                  // gdb's `info sharedlibrary`): subject = its path
  program_run,    // a shell's trace of a command given a model file (`+ ./aoti_run model.so -i
                  // ...`, set -x): subject = the program, value = the model argument, detail =
                  // the lines the program printed after it
  printed_nonfinite,  // values a program printed as NaN or Inf (`{'loss': nan, 'grad_norm': nan}`,
                      // `loss=inf`): subject = their names, comma-separated; value = the first
  observed_shape,     // a result's size the program printed (`torch.Size([4096, 8])`, value "4096,
                      // 8"), or ATen's Resize.cpp warning that an output was resized (problem
                      // "resized": expected = the shape it had, value = the shape required)
};
std::string_view to_string(LogEventKind kind);

// One frame of a Python traceback in a log: `File "x.py", line 77, in <module>` and its code line.
struct LogFrame {
  std::string file;
  int line = 0;
  std::string function;
  std::string code;       // the next line, trimmed; "" when the log does not show it
  std::string code_text;  // that line as the log holds it, trimmed, when a prefix (a launcher's,
                          // a CI timestamp) makes it differ from `code`; else ""
  int log_line = 0;       // the line of `File "..."` in the log
  bool native = false;  // a C++ frame (c10's `frame #4: f + 0x4c (... in lib.so)`, gdb's `#0  0x..
                        // in f (...)`): `function` is the symbol, `file` the library or source file
  std::string text;     // the frame's own line as the log holds it, trimmed
  int code_line = 0;    // the log line of `code` when it is not the next one (IPython's `-->`)
};

struct LogEvent {
  LogEventKind kind = LogEventKind::python_exception;
  Location where;
  std::string text;  // the line, trimmed, at most 1,000 characters
  int repeats = 1;   // identical events folded into one

  // input_check_error
  int input_index = -1;
  std::string problem;  // "unmatched device type", "dim value is too large", "unmatched dtype", ...
  int dim = -1;
  // as printed: "11(cuda)", "1024", "6(at::kFloat)", "16"; runtime_error "duplicate OpenMP
  // runtime": the copy already initialized (`subject` is the one that was starting)
  std::string expected;
  std::string actual;  // "0", "4096", "5", "1"

  // triton_assert: the assert message; api_call_failed: the failing call; export_specialized:
  // symbol
  std::string subject;
  std::string value;  // export_specialized: "8"; cuda_error: the error text; api_call_failed: "144"
  // export_specialized: the line that stated `value` (`... inferred to be a constant (8).`), as
  // the log holds it, trimmed, when it is not the event's own line; 0 / "" otherwise.
  int value_line = 0;
  std::string value_text;
  // triton_assert: the kernel's .py / .cpp path; api_call_failed: the .cpp file; compile_error: the
  // file the diagnostic is about; compile_command: the source it compiles; load_error: the library
  // that required a missing symbol version; runtime_error: c10's or glog's file
  std::string source_file;
  int source_line = 0;
  // triton_assert raised by a C++ kernel's check: "Exception raised from <kernel> at
  // <file>:<line>".
  std::string kernel;

  // python_exception read from a traceback (one event per exception, its frames and message):
  // Python frames outermost first (the innermost 48 when there are more); native frames (also on
  // crashes and C++ errors) innermost first, the first 48.
  std::vector<LogFrame> frames;
  int user_frame = -1;  // index into frames of the innermost frame of the user's own code
  // The message's further lines as printed (`backend='inductor' raised:` / `LoweringException:
  // ...`, CppCompileError's `Command:` and `Output:`), from line where.line + 1 on, at most 60.
  // compile_error: the lines under the diagnostic, up to its source excerpt (`  605 |     code`).
  std::vector<std::string> detail;
  std::string
      unit;  // compile_error: the file being compiled, when the error is in a header it includes
  bool final = false;  // the last exception of the log: the one that ended the run
  // python_exception: the structure of the error. Where it was raised: the subsystem of the
  // innermost frame that is torch's, Triton's, an installed package's or the user's (Python's own
  // frames, such as subprocess.py, are skipped); unknown without frames.
  torch::Subsystem raised_in = torch::Subsystem::unknown;
  // The log line of the exception printed before this one in the same chain (0 when this one starts
  // a chain), and how Python linked them.
  int chained_from_line = 0;
  ExceptionLink link = ExceptionLink::none;
  // Following the direct causes back (`raise ... from`): the first exception of that chain, its
  // type and where it was raised. Wrappers (BackendCompilerFailed, InductorError) are raised where
  // they catch, not where it failed. Empty / unknown when this exception has no direct cause.
  std::string root_cause_type;
  torch::Subsystem root_cause_raised_in = torch::Subsystem::unknown;
  // false: the log shows the traceback's frames but ends (or moves on) before its exception line,
  // as pasted logs often do: the type and message are unknown, the frames say where it was.
  bool complete = true;
  // compile_error / load_error / runtime_error: what kind of failure the line states ("missing
  // header", "undefined symbol", ...) is in `problem`; the library, header or op it names in
  // `subject`.

  // python_exception without frames: the code line right above it, as the log holds it, when the
  // paste kept a frame's code line but lost its `File "...", line N` line (`return
  // torch.embedding(weight, input, ...)`); 0 / "" otherwise.
  int orphan_code_line = 0;
  std::string orphan_code;
  // python_exception "size/stride assert": the op whose output was checked, as the generated
  // code's call names it (`torch.ops.ns.op.default` in `assert_size_stride(buf6, (32, 4096),
  // (4096, 1), 'torch.ops.ns.op.default')` on the line above); "" when not shown there.
  std::string op;

  // python_exception: Dynamo's graph-break record (torch 2.7+: the break's type on the exception
  // line, then `Explanation: ...`, `Hint: ...`, `Developer debug context: ...`): the explanation's
  // text and its log line; "" / 0 when the message has none.
  std::string explanation;
  int explanation_line = 0;

  // Set by correlation: index into Case::models of the model this event concerns, none if unknown.
  std::optional<std::size_t> model;
};

}  // namespace aoti::model
