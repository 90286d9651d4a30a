// Recognisers for the lines that state a failure around AOTI: compiler and linker diagnostics, the
// compiler command that failed, dynamic-loader errors, Python traceback frames and native stack
// frames. Each takes one line and says what it states, or nothing; the log scanner keeps the state
// between lines. The message texts are the tools' own (GCC, Clang, nvcc, ptxas, binutils ld,
// glibc's dlerror, c10's Dispatcher, CPython's traceback module).
#pragma once

#include "torch/subsystem.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace aoti::parsers::logs {

// `x.cpp:384:33: error: 'f' was not declared in this scope`, `fatal error: cuda.h: No such file or
// directory`, `collect2: error: ld returned 1 exit status`, `/usr/bin/ld: cannot find -lcuda`,
// `undefined reference to 'f'`, `ptxas fatal   : ...`, `nvcc fatal   : ...`.
struct CompilerDiagnostic {
  std::string problem;  // "compile error", "missing header", "link error", "missing library",
                        // "undefined reference", "assembler error"; distutils running a compiler:
                        // "missing compiler", "compiler not runnable", "compiler failed"; LLVM's
                        // fatal error or a failed assert in its sources: "compiler crash"
  std::string file;     // the file the diagnostic is about, "" when it names none
  int line = 0;
  std::string
      tool;  // "collect2", "ld", "ptxas", "nvcc", "g++" when a tool rather than a file speaks
  std::string subject;  // the header, library (-lcuda) or symbol it names
  std::string message;  // the text after `error:` (or the tool's colon)
  // A bare `error: ...` line (no file, no tool, as when a paste broke the line): a compiler's only
  // when its source excerpt (`  605 |     code`) follows.
  bool bare = false;
};
std::optional<CompilerDiagnostic> compiler_diagnostic(std::string_view line);

// GCC's source excerpt under a diagnostic: `  384 |     AOTI_TORCH_ERROR_CODE_CHECK(...)`.
bool is_compiler_excerpt(std::string_view line);

// `In file included from /x/model.h:17,` and `                 from /tmp/c.cpp:4:`: the file named.
std::string_view include_chain_file(std::string_view line);

// A compiler run as echoed in a log (`g++ /tmp/x.cpp -shared -o x.so ...`, `+ nvcc -fatbin a.ptx`)
// or as Python printed it in CalledProcessError (`Command '['nvcc', '-fatbin', 'a.ptx', ...]'
// returned non-zero exit status 255.`).
struct CompilerCommand {
  std::string compiler;  // "g++", "nvcc"
  std::string source;    // the first .cpp / .cc / .cu / .c / .ptx it compiles, "" if none
  std::string output;    // the -o argument, "" if none
  std::string status;    // CalledProcessError's exit status, "" otherwise
};
std::optional<CompilerCommand> compiler_command(std::string_view line);

// What the dynamic loader (glibc's dlerror, through ctypes, ImportError, torch's `Error in dlopen`)
// or the dispatcher said when a library or one of its ops could not be loaded.
struct LoadFailure {
  std::string problem;  // "undefined symbol", "missing library", "missing symbol version",
                        // "wrong ELF class", "invalid ELF header", "missing op schema", "dlopen
                        // failed", "no model in package", "unreadable package"
  std::string
      library;         // the library that failed to load (the path before the colon), "" if unnamed
  std::string detail;  // the symbol, the missing library, the version ("GLIBCXX_3.4.32"), the op
  std::string required_by;  // "version ... not found (required by X)": X
};
std::optional<LoadFailure> load_failure(std::string_view line);

// `  File "/home/me/export.py", line 77, in <module>`.
struct PythonFrame {
  std::string file;
  int line = 0;
  std::string function;
  // TorchScript's record of where a traced op was called (`/x/debug.py(5): forward`), printed
  // innermost first under `Traceback of TorchScript (most recent call last):`.
  bool innermost_first = false;
};
std::optional<PythonFrame> python_frame(std::string_view line);

// Native stack frames: c10's `frame #4: torch::f() + 0x49c (0x7216 in /x/libtorch.so)`, gdb's
// `#0  0x00007fffe511d3ed in void at::native::f<1, 64>(...) at int4mm_kernel.cpp:120`, and glibc
// backtrace_symbols()'s `/x/libk2context.so(k2::f(int)+0x97) [0x7fff7b5852f7]` that libraries print
// under their own errors.
struct NativeFrame {
  std::string symbol;  // as printed (already demangled by the printer)
  std::string module;  // the library or source file, "" when the frame names none
  bool from_gdb = false;
};
std::optional<NativeFrame> native_frame(std::string_view line);

// The exception type a line starts with: "torch._dynamo.exc.UserError" for
// "torch._dynamo.exc.UserError: Constraints violated ...", "" when the line does not start with one
// (a dotted name whose last part is capitalised, followed by ':' or the end of the line).
std::string_view exception_type_at_start(std::string_view line);

using torch::is_framework_file;

// The first file name of a compiled library in a line: `x.so`, `x.so.1`,
// `common_ops.cpython-312-x86_64-linux-gnu.so`, `x.pyd`, `x.dylib`, `x.dll`; "" when none.
std::string_view shared_object_in(std::string_view line);

}  // namespace aoti::parsers::logs
