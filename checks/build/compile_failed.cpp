// build.compile-failed: the generated wrapper / kernel C++ (or a C++ extension) failed to compile
// or link: the first compiler error with the file it is in, the command that ran, and why it
// failed.
#include "checks/build/compile_failed.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "checks/support/commands.hpp"
#include "checks/support/failures.hpp"
#include "checks/support/finding.hpp"
#include "torch/error_messages.hpp"
#include "torch/subsystem.hpp"
#include "util/text.hpp"

namespace aoti::checks {
namespace {
using namespace aoti::model;

namespace fl = failures;

constexpr std::size_t k_max_event_text = 1000;  // the log reader's cap: a line this long was cut

std::string basename_of(std::string_view path) {
  const auto slash = path.find_last_of('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

// "`<x>`" cut to `max` characters with a visible mark.
// What a file in a compiler diagnostic is, for a person.
std::string describe_file(const std::string& path) {
  if (path.empty()) return "";
  const std::string base = basename_of(path);
  if (const auto at = path.find("/torch/include/"); at != std::string::npos)
    return fmt::format("PyTorch's header `{}`", path.substr(at + 15));
  if (base.ends_with(".wrapper.cpp")) return "the generated AOTI wrapper";
  if (base.ends_with(".kernel.cpp")) return "the generated C++ kernels";
  if (base.ends_with(".ptx")) return "a Triton kernel's PTX";
  // Inductor names its generated sources after their hash: c<52 base32 characters>.cpp, under its
  // cache.
  if (path.find("torchinductor_") != std::string::npos ||
      (base.size() > 40 && base[0] == 'c' && base.ends_with(".cpp")))
    return "C++ that Inductor generated";
  return fmt::format("`{}`", path);
}

bool is_cuda_header(std::string_view header) {
  return header.starts_with("cuda") || header.starts_with("nv/") || header.starts_with("cublas") ||
         header.starts_with("cusparse") || header.starts_with("cufft") ||
         header.starts_with("curand") || header.starts_with("nvrtc") ||
         header.starts_with("nvToolsExt");
}

// C++ standard library headers added in C++17: a compiler that lacks them is too old for PyTorch.
bool is_cxx17_header(std::string_view header) {
  for (std::string_view name : {"filesystem", "optional", "variant", "string_view", "any",
                                "charconv", "memory_resource", "execution"})
    if (header == name) return true;
  return false;
}

struct Why {
  std::string text;
  std::vector<NextStep> steps;
};

bool is_summary(const LogEvent& e) {
  return (e.problem == "link error" && e.text.find("collect2") != std::string::npos) ||
         e.problem == "compiler failed";  // distutils' `error: command '...' failed`
}

// model_package_loader.cpp's own messages when it compiles a package's .cpp at load time.
bool states_build_failure(const LogEvent& e) {
  return e.kind != LogEventKind::compile_error && e.kind != LogEventKind::compile_command &&
         (e.text.find("Failed to compile cpp file.") != std::string::npos ||
          e.text.find("Failed to link files.") != std::string::npos);
}

// The compiler's message; a bare `error:` whose message a paste broke off continues on the next
// line (not an excerpt), at the column where the terminal wrapped it.
std::string stated_message(const LogEvent& e) {
  if (e.source_file.empty() && e.text.find("error: ") == e.text.find_first_not_of(' ') &&
      !e.detail.empty() && e.detail.front().find(" | ") == std::string::npos &&
      !e.detail.front().empty() && e.detail.front()[0] != ' ') {
    std::string joined = e.value + e.detail.front();
    while (!joined.empty() && joined.back() == ' ') joined.pop_back();
    return joined;
  }
  return e.value;
}

std::string capitalized(std::string text) {
  if (!text.empty() && text[0] >= 'a' && text[0] <= 'z')
    text[0] = static_cast<char>(text[0] - 'a' + 'A');
  return text;
}

std::string title_of(const LogEvent& e, const std::string& what, const std::string& said) {
  if (e.problem == "missing header")
    return fmt::format("The C++ build failed: header `{}` was not found", e.subject);
  if (e.problem == "missing library")
    return fmt::format("Linking failed: library `{}` was not found", e.subject);
  if (e.problem == "undefined reference")
    return fmt::format("Linking failed: undefined reference to `{}`", e.subject);
  if (e.problem == "link error") return fmt::format("Linking failed: {}", code_span(said, 120));
  if (e.problem == "assembler error")
    return fmt::format("ptxas rejected the PTX of a kernel: {}", code_span(said, 120));
  if (e.problem == "compiler crash")
    return fmt::format("The compiler inside Triton (LLVM) crashed on a kernel: {}",
                       code_span(said, 120));
  if (e.problem == "missing compiler")
    return fmt::format("The build could not run its compiler: `{}` does not exist", e.subject);
  if (e.problem == "compiler not runnable")
    return fmt::format("The build could not run its compiler `{}`", e.subject);
  if (what.empty()) return fmt::format("The C++ build failed: {}", code_span(said, 120));
  return fmt::format("{} failed to compile: {}",
                     what.substr(0, 1) == "`" ? what : capitalized(what), code_span(said, 120));
}

std::string compiler_of(const LogEvent* command) {
  return command && !command->subject.empty() ? command->subject : "g++";
}

// `‘aoti_torch__embedding_bag’ was not declared in this scope` -> "aoti_torch__embedding_bag".
std::string undeclared_identifier(const std::string& message) {
  for (std::string_view marker :
       {" was not declared in this scope", " undeclared identifier", " is undefined"}) {
    const auto at = message.find(marker);
    if (at == std::string::npos) continue;
    std::string head = message.substr(0, at);
    // Quotes: ‘x’, 'x', "x".
    for (std::string_view quote : {"\xE2\x80\x99", "'", "\""})
      if (head.ends_with(quote)) head.resize(head.size() - quote.size());
    const auto start = head.find_last_of(" '\"\x98");
    return start == std::string::npos ? head : head.substr(start + 1);
  }
  return "";
}

std::string shell(const std::string& word) { return shell_word(word); }

Why explain(const LogEvent& e, const std::string& file, const LogEvent* command,
            const std::string& script) {
  Why why;
  const std::string compiler = compiler_of(command);
  if (e.problem == "compiler crash") {
    why.text =
        "LLVM (and MLIR) run inside Triton when it compiles the kernels Inductor generated; a "
        "fatal "
        "error or a failed assert there is a compiler bug or a construct this GPU's backend cannot "
        "lower, not an error in the model: the process aborts while the kernel compiles.";
    why.steps = {{"re-run with the generated kernels dumped, to find the one that crashed the "
                  "compiler (under torch_compile_debug/)",
                  fl::with_env("TORCH_COMPILE_DEBUG=1", script)},
                 {"see the Triton version; a newer (or older) Triton may compile it",
                  "python -c \"import triton; print(triton.__version__)\""}};
    return why;
  }
  if (e.problem == "missing compiler" || e.problem == "compiler not runnable") {
    // A `:` inside a path that is not a drive letter: a PATH-style list used as one directory.
    const auto colon = e.subject.find(':');
    const bool path_list = colon != std::string::npos && colon != 1;
    why.text = fmt::format(
        "The build (setuptools, driven by torch.utils.cpp_extension) ran `{}`, which {}.{}",
        e.subject, e.problem == "missing compiler" ? "does not exist" : "could not be executed",
        path_list ? " The path holds a `:`-separated list: the directory it was built from (for "
                    "nvcc, CUDA_HOME or CUDA_PATH) is set to several paths joined by `:`, which "
                    "a compiler path cannot be."
                  : "");
    const std::string tool = basename_of(e.subject);
    if (tool == "nvcc")
      why.steps = {{"see the CUDA settings the build read",
                    "echo \"CUDA_HOME=$CUDA_HOME CUDA_PATH=$CUDA_PATH\"; which nvcc"},
                   {"point CUDA_HOME at one toolkit directory and build again",
                    "export CUDA_HOME=/usr/local/cuda"}};
    else
      why.steps = {{"see which compiler the build would find",
                    fmt::format("echo \"CC=$CC CXX=$CXX\"; which {}", shell_word(tool))}};
    return why;
  }
  if (e.problem == "missing header") {
    const std::string check_header =
        fmt::format("echo '#include <{}>' | {} -x c++ -fsyntax-only -", e.subject, compiler);
    if (is_cuda_header(e.subject)) {
      why.text = fmt::format(
          "`{}` belongs to the CUDA Toolkit. AOTInductor builds a CUDA model's wrapper with the "
          "host "
          "C++ compiler against the toolkit's headers, and the torch wheels do not ship them: the "
          "machine that compiles the package needs a CUDA Toolkit of the version torch was built "
          "with, "
          "found through CUDA_HOME.",
          e.subject);
      why.steps = {
          {"see which CUDA version torch was built with, and whether a toolkit is installed",
           "python -c \"import torch; print(torch.version.cuda)\"; nvcc --version; ls "
           "\"${CUDA_HOME:-/usr/local/cuda}/include/cuda.h\""},
          {"install the CUDA Toolkit of that version and point CUDA_HOME at it, then compile again",
           "export CUDA_HOME=/usr/local/cuda"}};
    } else if (e.subject == "Python.h") {
      why.text =
          "The Python development headers are missing: install the `python3-dev` (Debian/Ubuntu) "
          "or "
          "`python3-devel` (Fedora/RHEL) package for the Python version that runs torch.";
      why.steps = {{"see where the compiler looks for Python.h",
                    "python3 -c \"import sysconfig; print(sysconfig.get_paths()['include'])\""}};
    } else if (e.subject == "omp.h") {
      why.text =
          "The OpenMP headers are missing: Inductor's CPU code is built with OpenMP. Install the "
          "compiler's OpenMP "
          "package (`libgomp` comes with GCC; `libomp-dev` for Clang; `brew install libomp` on "
          "macOS).";
      why.steps = {
          {"check that the compiler finds omp.h",
           fmt::format("echo '#include <omp.h>' | {} -fopenmp -x c++ -fsyntax-only -", compiler)}};
    } else if (is_cxx17_header(e.subject)) {
      why.text = fmt::format(
          "`<{}>` is part of the C++17 standard library: a compiler that does not find it is older "
          "than "
          "PyTorch's headers need. Compile with a newer compiler (GCC 9 or newer), e.g. through "
          "the "
          "CXX environment variable, which Inductor reads.",
          e.subject);
      why.steps = {{"see which compiler runs", fmt::format("{} --version", compiler)},
                   {"check that it has the header", check_header},
                   {"point Inductor at a newer compiler, then compile again", "export CXX=g++-11"}};
    } else if (file.find("/torch/include/") != std::string::npos) {
      why.text = fmt::format(
          "A PyTorch header includes `{}`, which the compiler cannot find on its include path.",
          e.subject);
      why.steps = {{"check whether the compiler finds the header", check_header}};
    } else {
      why.text = fmt::format("The compiler cannot find `{}` on its include path.", e.subject);
      why.steps = {{"check whether the compiler finds the header", check_header}};
    }
    return why;
  }
  if (e.problem == "missing library") {
    const std::string name =
        e.subject.starts_with("-l") ? "lib" + e.subject.substr(2) + ".so" : e.subject;
    why.text = fmt::format(
        "The linker did not find `{}` in its library path. A CUDA model links against the CUDA "
        "libraries (libcuda from the driver, libcudart from the toolkit).",
        name);
    why.steps = {{"see whether the system knows the library",
                  fmt::format("ldconfig -p | grep {}", shell(name))}};
    return why;
  }
  if (e.problem == "undefined reference" || e.problem == "link error") {
    why.text =
        "The objects linked together use a symbol that none of the libraries on the link line "
        "define: a "
        "library is missing from the link, or was built for another torch version.";
    if (!e.subject.empty())
      why.steps = {
          {"find which library defines the symbol", fmt::format("c++filt {}", shell(e.subject))}};
    return why;
  }
  // ptxas's `Feature '.bf16' requires .target sm_80 or higher`: the PTX uses an instruction or
  // type that the GPU it is assembled for (an older one) does not have.
  if (const auto requires_at = e.value.find("' requires .target ");
      e.problem == "assembler error" && e.value.starts_with("Feature '") &&
      requires_at != std::string::npos) {
    const std::string feature = e.value.substr(9, requires_at - 9);
    const std::string target =
        e.value.substr(requires_at + 19, e.value.find(' ', requires_at + 19) - requires_at - 19);
    why.text = fmt::format(
        "The kernel's PTX uses `{}`, which needs a GPU of {} or newer, and ptxas assembled it for "
        "an older GPU's target: the kernel was generated with a feature this GPU lacks (most often "
        "a dtype, such as bfloat16 below sm_80, chosen because the GPU was reported to support "
        "it). Run the model in a dtype this GPU supports, or on a GPU of {} or newer.",
        feature, target, target);
    why.steps = {{"see the GPU's compute capability",
                  "nvidia-smi --query-gpu=name,compute_cap --format=csv"}};
    return why;
  }
  if (e.problem == "assembler error") {
    why.text =
        "ptxas assembles the PTX that Triton generated for each kernel into CUDA binaries. It "
        "refused it: when the message names two architectures, the PTX was generated for one GPU "
        "target and "
        "the build asked for another, so the torch and Triton versions disagree about this GPU.";
    why.steps = {{"see the GPU's compute capability and the toolkit version",
                  "nvidia-smi --query-gpu=name,compute_cap --format=csv; nvcc --version"}};
    return why;
  }
  // PyTorch's headers refuse older standards themselves (c10/macros: `#error You need C++17 to
  // compile PyTorch`; ATen.h from torch 2.10 on: `#error C++20 or later compatible compiler is
  // required to use ATen.`): the standard the message names.
  if (const auto at = e.value.find("C++");
      at != std::string::npos && util::digits_at(e.value, at + 3).size() == 2 &&
      (e.problem == "error directive" || e.value.find("#error") != std::string::npos ||
       e.value.find("You need C++") != std::string::npos)) {
    const std::string standard = "C++" + std::string(util::digits_at(e.value, at + 3));
    std::string flag = "-std=c++" + standard.substr(3);
    why.text = fmt::format(
        "PyTorch's headers need {}, and this compile ran with an older standard: the build's own "
        "setting (CMAKE_CXX_STANDARD, a `-std=` flag in setup.py or the project's CMake) or an old "
        "compiler's default. Build the files that include torch's headers with `{}` (or newer), "
        "with a compiler that supports it.",
        standard, flag);
    why.steps = {{"see which compiler runs, and its default standard",
                  fmt::format("{} --version; echo | {} -dM -E -x c++ - | grep __cplusplus",
                              compiler, compiler)}};
    return why;
  }
  // A compile error in generated code is Inductor's, in a header or a user file the code's.
  const std::string identifier = undeclared_identifier(stated_message(e));
  if (identifier.starts_with("aoti_torch_")) {
    why.text = fmt::format(
        "The generated code calls `{}`, a function of AOTI's C shim that the shim headers it was "
        "compiled against do not declare: this torch has no shim entry for the op (AOTI emits the "
        "call "
        "for an op it runs through the shim), or the headers come from another torch version.",
        identifier);
    why.steps = {
        {"see whether the installed torch declares it",
         fmt::format(
             "grep -rn {} \"$(python -c 'import torch, os; "
             "print(os.path.dirname(torch.__file__))')/include/torch/csrc/inductor/aoti_torch/\"",
             identifier)},
        {"compare with a newer torch, where the op may have a shim entry",
         "python -c \"import torch; print(torch.__version__)\""}};
    return why;
  }
  std::string what = describe_file(file);
  for (const auto& line : e.detail)
    if (what.empty() && line.find(" | ") != std::string::npos &&
        line.find("aoti_torch_") != std::string::npos)
      what = "generated";
  if (what.find("generated") != std::string::npos || what.find("Inductor") != std::string::npos) {
    why.text =
        "Inductor generated C++ that does not compile. That is a code-generation bug in this torch "
        "version for "
        "something in the model, not an error in your code: a newer torch may have it fixed; "
        "otherwise report it "
        "with the error and the generated code.";
    if (e.source_line > 0 && file.starts_with("/"))
      why.steps.push_back(
          {"read the generated code around the error, while Inductor's cache still holds it",
           fmt::format("sed -n '{},{}p' {}", std::max(1, e.source_line - 10), e.source_line + 5,
                       shell(file))});
    if (!script.empty())
      why.steps.push_back(
          {"keep the generated code for the report", "TORCH_LOGS=output_code " + script});
    return why;
  }
  why.text =
      "The compiler rejected this code. Read the first error: later ones often follow from it.";
  if (e.source_line > 0 && file.starts_with("/"))
    why.steps.push_back({"read the code around the error",
                         fmt::format("sed -n '{},{}p' {}", std::max(1, e.source_line - 10),
                                     e.source_line + 5, shell(file))});
  return why;
}

Why explain_exception(const LogEvent& e, const LogEvent* command, const std::string& script) {
  Why why;
  const std::string message = fl::message_text(e);
  if (message.find("CUDA_HOME") != std::string::npos) {
    why.text =
        "Building a CUDA package needs the CUDA Toolkit (nvcc and its headers), found through "
        "CUDA_HOME; torch's "
        "wheels do not ship it. Install a toolkit of the CUDA version torch was built with and set "
        "CUDA_HOME.";
    why.steps = {
        {"see which CUDA version torch was built with, and whether a toolkit is installed",
         "python -c \"import torch; print(torch.version.cuda)\"; nvcc --version"},
        {"point CUDA_HOME at the toolkit, then compile again", "export CUDA_HOME=/usr/local/cuda"}};
    return why;
  }
  if (fl::names_type(e, "InvalidCxxCompiler")) {
    // `No working C++ compiler found in torch._inductor.config.cpp.cxx: (None, '/opt/x/g++')`: the
    // last compiler the config names is the one it tried.
    std::string tried = compiler_of(command);
    if (const auto close = e.value.rfind("')"); close != std::string::npos)
      if (const auto open = e.value.rfind('\'', close - 1);
          open != std::string::npos && open < close)
        tried = e.value.substr(open + 1, close - open - 1);
    why.text = fmt::format(
        "Inductor found no working C++ compiler: it tried `{}`, the one the CXX environment "
        "variable "
        "names (g++ by default, clang++ on macOS), and that does not run.",
        tried);
    why.steps = {{"see whether that compiler runs", fmt::format("{} --version", shell(tried))},
                 {"point Inductor at a compiler that does, then compile again", "export CXX=g++"}};
    return why;
  }
  if (fl::names_type(e, "CalledProcessError")) {
    why.text =
        "A compiler Inductor ran exited with an error; its own output, printed before the "
        "exception (or with "
        "the exception's `Output:`), says why.";
    if (!script.empty())
      why.steps = {{"re-run and keep the compiler's output", script + " 2>&1 | tee build.log"}};
    return why;
  }
  why.text = "The C++ build failed before the compiler reported anything the log shows.";
  if (!script.empty())
    why.steps = {{"re-run with Inductor's build logs", "TORCH_LOGS=output_code " + script}};
  return why;
}

Finding report(const Case& c, const std::string& artifact, const LogEvent* first,
               const std::vector<const LogEvent*>& errors,
               const std::vector<const LogEvent*>& commands,
               const std::vector<const LogEvent*>& exceptions) {
  Finding f = new_finding(BuildCompileFailedCheck::k_info, Severity::error, first ? 0.9 : 0.8);
  f.explains_failure = true;
  const LogEvent* exception = exceptions.empty() ? nullptr : exceptions.back();
  const LogEvent* command = nullptr;
  if (first) {
    // The command that compiled the failing file: the nearest one before the error, else any.
    for (const LogEvent* e : commands)
      if (e->where.line <= first->where.line || !command) command = e;
  } else if (!commands.empty()) {
    command = commands.back();
  }
  const std::string script = fl::script_command(c, artifact);

  if (first) {
    const std::string file =
        first->source_file.empty() && command ? command->source_file : first->source_file;
    std::string what = describe_file(file);
    // Without a file name (a paste that lost it), the code the compiler quotes can still say whose
    // it is: calls into AOTI's C shim are the generated wrapper's.
    if (what.empty())
      for (const auto& line : first->detail)
        if (line.find(" | ") != std::string::npos && line.find("aoti_torch_") != std::string::npos)
          what = "the AOTI wrapper code";
    const std::string unit =
        first->unit.empty() || first->unit == file ? "" : describe_file(first->unit);
    f.subject = fmt::format("build {} {}", first->problem,
                            first->subject.empty() ? basename_of(file) : first->subject);
    const std::string said = stated_message(*first);
    f.title = title_of(*first, what, said);
    f.message = fmt::format(
        "The {} reported {}{}{}: {}.",
        first->problem == "assembler error" ? "assembler"
        : first->problem == "link error" || first->problem == "missing library" ||
                first->problem == "undefined reference"
            ? "linker"
            : "compiler",
        what.empty() ? "an error" : "an error in " + what,
        first->source_line > 0 ? fmt::format(" at `{}:{}`", basename_of(file), first->source_line)
                               : "",
        unit.empty() ? "" : fmt::format(", included by {} (`{}`)", unit, basename_of(first->unit)),
        code_span(said));
    if (said != first->value)
      f.message += " (The log breaks the message over two lines; it is shown joined.)";
    if (errors.size() > 1)
      f.message += fmt::format(
          " {} more error line(s) follow; compilers report the first cause first, and later errors "
          "often follow from it.",
          errors.size() - 1);
    if (command)
      f.message += fmt::format(" The failing command, {}, is at line {}.",
                               command->source_file.empty()
                                   ? code_span(command->subject)
                                   : fmt::format("{} on `{}`", code_span(command->subject),
                                                 basename_of(command->source_file)),
                               command->where.line);
    const Why why = explain(*first, file, command, script);
    f.why = why.text;
    f.next_steps = why.steps;
    f.evidence.push_back(event_evidence(*first, "the first compiler error"));
    fl::add_detail_evidence(*first, 0, 4, "the code the compiler points at", f.evidence);
    for (const LogEvent* e : errors)
      if (e != first && f.evidence.size() < 8)
        f.evidence.push_back(
            event_evidence(*e, is_summary(*e) ? "the build's summary of it" : "a further error"));
    if (command) f.evidence.push_back(event_evidence(*command, "the compiler command"));
    // Only a command the log shows whole runs as printed: a paste that elided its flags (`c++ ...
    // x.cpp`) does not.
    if (command && command->text.size() < k_max_event_text && command->problem.empty() &&
        command->text.find("...") == std::string::npos)
      f.next_steps.push_back(
          {torch::is_generated_file(command->source_file)
               ? "re-run the compiler command as the log shows it, while Inductor's cache still "
                 "holds its files"
               : "re-run the compiler command as the log shows it",
           command->text});
    f.chain = {what.empty() ? "C++ source" : what,
               fmt::format("{}: {}", first->problem,
                           first->subject.empty() ? cut(first->value, 60) : first->subject),
               "build failed"};
  } else {
    // No compiler output in the log: the exception says what stopped the build.
    // The message, from the exception's line or (when the line ends at the type) the next lines.
    std::string said = exception->value;
    // A wrapper whose line ends where the message starts (`backend='inductor' raised:`): the
    // message is on the next lines.
    if (said.ends_with(":")) {
      for (const auto& line : exception->detail)
        if (const auto start = line.find_first_not_of(' '); start != std::string::npos) {
          said += " " + line.substr(start);
          break;
        }
    }
    for (std::size_t i = 0; said.empty() && i < exception->detail.size(); ++i)
      if (const auto start = exception->detail[i].find_first_not_of(' ');
          start != std::string::npos) {
        said = exception->detail[i].substr(start);
        if (i + 1 < exception->detail.size() &&
            exception->detail[i + 1].find_first_not_of(' ') != std::string::npos)
          said += " " +
                  exception->detail[i + 1].substr(exception->detail[i + 1].find_first_not_of(' '));
      }
    // Triton compiling a kernel (its frontend, or its backend checking the toolchain) is a build
    // too, but not a C++ one.
    const bool triton = exception->raised_in == torch::Subsystem::triton_compile ||
                        exception->root_cause_raised_in == torch::Subsystem::triton_compile ||
                        torch::subsystem_of_message(fl::message_text(*exception)) ==
                            torch::Subsystem::triton_compile;
    f.subject = "build " + exception->subject;
    f.title =
        fmt::format("{}: {}", triton ? "Triton could not compile a kernel" : "The C++ build failed",
                    code_span(fmt::format("{}: {}", exception->subject, said), 140));
    f.message = fmt::format("The run ended with `{}: {}`, raised while {}{}.", exception->subject,
                            cut(said, 300), triton ? "Triton compiled a kernel" : "building C++",
                            fl::raised_in(*exception, "torch/utils/cpp_extension.py")
                                ? " (torch/utils/cpp_extension.py)"
                            : fl::raised_in(*exception, "torch/_inductor/cpp_builder.py")
                                ? " (torch/_inductor/cpp_builder.py)"
                                : "");
    const Why why = explain_exception(*exception, command, script);
    f.why = triton && why.text.starts_with("The C++ build failed before")
                ? "Triton raised this while compiling a kernel, before the kernel reached a "
                  "compiler; the message and the frame that raised it say why."
                : why.text;
    f.next_steps = why.steps;
    f.chain = {"C++ build", exception->subject, "build failed"};
  }
  if (exception) {
    f.evidence.push_back(
        event_evidence(*exception, first ? "the exception that ended the run" : "the error"));
    // A message that starts on the next line (cpp_extension's CUDA version mismatch) is quoted too.
    if (!first)
      fl::add_detail_evidence(*exception, 0, exception->value.empty() ? 3 : 1,
                              "the exception's message", f.evidence);
    if (!first) fl::add_origin_evidence(c, *exception, f.evidence);
    fl::add_user_frame_evidence(*exception, f.evidence);
  }
  return f;
}
}  // namespace

std::vector<Finding> BuildCompileFailedCheck::run(const Case& c) const {
  std::vector<Finding> out;
  for (const auto& artifact : fl::log_artifacts(c)) {
    const auto events = fl::events_of(c, artifact);
    const LogEvent* first =
        nullptr;  // the first compiler error: the later ones often follow from it
    std::vector<const LogEvent*> errors, commands, exceptions;
    for (const LogEvent* e : events) {
      if (e->kind == LogEventKind::compile_error) errors.push_back(e);
      if (e->kind == LogEventKind::compile_command) commands.push_back(e);
      if (fl::route_of(*e) == fl::Route::build || states_build_failure(*e)) exceptions.push_back(e);
    }
    // collect2's `ld returned 1 exit status` only sums up the linker errors before it.
    for (const LogEvent* e : errors)
      if (!first || (is_summary(*first) && !is_summary(*e))) first = e;
    // Only summaries (pip's `Failed building wheel`, distutils' `command ... failed`) and an
    // exception the build raised (cpp_extension's CUDA version check): the exception is the cause.
    if (first && is_summary(*first) &&
        std::any_of(exceptions.begin(), exceptions.end(), [](const LogEvent* e) {
          return e->kind == LogEventKind::python_exception && fl::route_of(*e) == fl::Route::build;
        }))
      first = nullptr;
    if (!first && exceptions.empty()) continue;
    out.push_back(report(c, artifact, first, errors, commands, exceptions));
  }
  // The trace's record of a compile that failed in the build: evidence for the log's finding of
  // the same run, else a finding of its own.
  for (const auto& trace : c.traces)
    for (const auto& failure : trace.failures) {
      if (fl::route_of(failure) != fl::Route::build) continue;
      fl::join_or_add(out, failure, [&] {
        Finding f = new_finding(k_info, Severity::error, 0.75);
        f.explains_failure = true;
        f.subject = "build " + failure.fail_type;
        f.title =
            fmt::format("The C++ build failed: {}",
                        code_span(fmt::format("{}: {}", failure.fail_type, failure.reason), 140));
        f.message = fmt::format(
            "The trace records a compile that failed while building C++ ({}): `{}: {}`.",
            failure.origin, failure.fail_type,
            cut(failure.reason.substr(0, failure.reason.find('\n')), 300));
        f.why =
            "Inductor compiles the generated C++ with the host compiler; the record's reason names "
            "what stopped it.";
        f.evidence.push_back(fl::trace_failure_evidence(failure));
        f.next_steps = {{"read the trace's failure with tlparse",
                         fmt::format("tlparse {}", shell_word(trace.artifact))}};
        return f;
      });
      break;
    }
  return out;
}

}  // namespace aoti::checks
