#include "parsers/logs/failure_lines.hpp"

#include <array>

#include "util/text.hpp"

namespace aoti::parsers::logs {
namespace {

constexpr std::size_t k_npos = std::string_view::npos;

std::string_view basename_of(std::string_view path) {
  const auto slash = path.find_last_of("/\\");
  return slash == k_npos ? path : path.substr(slash + 1);
}

// g++, gcc-12, x86_64-linux-gnu-g++-12, clang++, nvcc, /usr/bin/c++: a compiler driver's name.
bool is_compiler_name(std::string_view name) {
  name = basename_of(name);
  // A version suffix: "-12", "-19.1".
  if (const auto dash = name.rfind('-'); dash != k_npos && dash + 1 < name.size()) {
    const auto version = name.substr(dash + 1);
    if (version.find_first_not_of("0123456789.") == k_npos) name = name.substr(0, dash);
  }
  static constexpr std::array<std::string_view, 9> k_names = {
      "g++", "gcc", "c++", "cc", "clang", "clang++", "nvcc", "icpx", "icx"};
  for (auto known : k_names) {
    if (name == known) return true;
    // A cross-compiler prefix: "x86_64-linux-gnu-g++".
    if (name.size() > known.size() + 1 && name.ends_with(known) &&
        name[name.size() - known.size() - 1] == '-')
      return true;
  }
  return false;
}

// The tools that speak for themselves in a diagnostic (`collect2: error: ...`, `ld.lld: error:
// ...`).
bool is_build_tool(std::string_view name) {
  name = basename_of(name);
  if (is_compiler_name(name)) return true;
  static constexpr std::array<std::string_view, 9> k_tools = {
      "cc1plus", "cc1", "collect2", "ld", "ld.lld", "ld.gold", "lld", "cicc", "ptxas"};
  for (auto tool : k_tools)
    if (name == tool) return true;
  return name.ends_with("-ld");
}

bool is_linker(std::string_view tool) {
  tool = basename_of(tool);
  return tool == "collect2" || tool == "ld" || tool.starts_with("ld.") || tool == "lld" ||
         tool.ends_with("-ld");
}

// The text inside the first pair of quotes GCC, Clang or binutils use: `x', 'x', ‘x’, "x".
std::string_view quoted(std::string_view text) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 5> k_pairs = {
      {{"\xE2\x80\x98", "\xE2\x80\x99"}, {"`", "'"}, {"'", "'"}, {"\"", "\""}, {"`", "`"}}};
  std::size_t best = k_npos;
  std::string_view result;
  for (const auto& [open, close] : k_pairs) {
    const auto at = text.find(open);
    if (at == k_npos || (best != k_npos && at >= best)) continue;
    const auto end = text.find(close, at + open.size());
    if (end == k_npos) continue;
    best = at;
    result = text.substr(at + open.size(), end - at - open.size());
  }
  return result;
}

// `path:12:5` or `path:12` -> path, 12; `path(12)` or `path(12,5)` (nvcc, MSVC) likewise.
bool split_location(std::string_view prefix, std::string& file, int& line) {
  if (prefix.ends_with(')')) {
    const auto open = prefix.rfind('(');
    if (open == k_npos || open == 0) return false;
    const auto inside = prefix.substr(open + 1, prefix.size() - open - 2);
    const auto number = util::digits_at(inside, 0);
    if (number.empty() || (number.size() != inside.size() && inside[number.size()] != ','))
      return false;
    file = std::string(prefix.substr(0, open));
    line = util::to_int(number).value_or(0);
    return true;
  }
  // Up to two trailing `:<digits>` groups.
  std::string_view rest = prefix;
  std::string_view first_number;
  for (int group = 0; group < 2; ++group) {
    const auto colon = rest.rfind(':');
    if (colon == k_npos || colon + 1 >= rest.size()) break;
    const auto number = rest.substr(colon + 1);
    if (number.find_first_not_of("0123456789") != k_npos) break;
    first_number = number;
    rest = rest.substr(0, colon);
  }
  if (first_number.empty() || rest.empty() || rest.find(' ') != k_npos) return false;
  file = std::string(rest);
  line = util::to_int(first_number).value_or(0);
  return true;
}

void classify_message(CompilerDiagnostic& d, bool fatal) {
  const std::string_view message = d.message;
  // GCC: `fatal error: cuda.h: No such file or directory`; Clang: `fatal error: 'cuda.h' file not
  // found`; MSVC: `Cannot open include file: 'cuda.h': No such file or directory`.
  if (const auto at = message.find(": No such file or directory"); fatal && at != k_npos) {
    auto name = message.substr(0, at);
    if (const auto include = name.find("Cannot open include file: "); include != k_npos)
      name = quoted(name.substr(include));
    d.problem = "missing header";
    d.subject = std::string(util::trim(name));
    return;
  }
  if (message.ends_with("file not found") && !quoted(message).empty()) {
    d.problem = "missing header";
    d.subject = std::string(quoted(message));
    return;
  }
  for (std::string_view marker : {"cannot find -l", "unable to find library -l"})
    if (const auto at = message.find(marker); at != k_npos) {
      d.problem = "missing library";
      auto library = message.substr(at + marker.size() - 2);
      library = library.substr(0, library.find_first_of(": "));
      d.subject = std::string(library);
      return;
    }
  if (!d.tool.empty() && is_linker(d.tool))
    d.problem = "link error";
  else if (basename_of(d.tool) == "ptxas")
    d.problem = "assembler error";
  else
    d.problem = "compile error";
}

}  // namespace

std::optional<CompilerDiagnostic> compiler_diagnostic(std::string_view line) {
  const std::string_view s = util::trim(line);
  if (s.empty()) return std::nullopt;
  CompilerDiagnostic d;

  // binutils: `/usr/bin/ld: x.o: in function `f': x.cpp:(.text+0x1): undefined reference to `g'`.
  if (const auto at = s.find("undefined reference to "); at != k_npos) {
    d.problem = "undefined reference";
    d.tool = "ld";
    d.subject = std::string(quoted(s.substr(at)));
    d.message = std::string(s.substr(at));
    return d;
  }
  // binutils: `/usr/bin/ld: cannot find -lcuda: No such file or directory` (older: no reason).
  if (const auto at = s.find(": cannot find -l"); at != k_npos && is_linker(s.substr(0, at))) {
    d.tool = std::string(basename_of(s.substr(0, at)));
    d.message = std::string(s.substr(at + 2));
    classify_message(d, false);
    return d;
  }
  // CUDA tools align their colon: `ptxas fatal   : ...`, `nvcc fatal   : ...`, `nvlink error   :
  // ...`.
  {
    const auto tool = util::first_word(s);
    if (tool == "ptxas" || tool == "nvcc" || tool == "nvlink" || tool == "fatbinary") {
      const auto rest = util::trim(s.substr(tool.size()));
      const auto level = util::first_word(rest);
      const auto colon_part = util::trim(rest.substr(level.size()));
      // ptxas on a line of the PTX it assembles: `ptxas /tmp/compile-ptx-src-38292b, line 336;
      // error   : Feature '.bf16' requires .target sm_80 or higher`.
      const auto comma = rest.find(", line ");
      const auto semicolon = rest.find("; ");
      if (tool == "ptxas" && comma != k_npos && semicolon != k_npos && comma < semicolon) {
        const auto located = util::trim(rest.substr(semicolon + 2));
        const auto located_level = util::first_word(located);
        const auto tail = util::trim(located.substr(located_level.size()));
        if ((located_level == "error" || located_level == "fatal") && tail.starts_with(':')) {
          d.tool = "ptxas";
          d.file = std::string(rest.substr(0, comma));
          d.line = util::to_int(util::digits_at(rest, comma + 7)).value_or(0);
          d.message = std::string(util::trim(tail.substr(1)));
          d.problem = "assembler error";
          return d;
        }
      }
      if ((level == "fatal" || level == "error") && colon_part.starts_with(':')) {
        d.tool = std::string(tool);
        d.message = std::string(util::trim(colon_part.substr(1)));
        d.problem = tool == "ptxas"    ? "assembler error"
                    : tool == "nvlink" ? "link error"
                                       : "compile error";
        return d;
      }
    }
  }
  // nvcc's refusal of an architecture it does not know (an older CUDA than the GPU, or than the
  // TORCH_CUDA_ARCH_LIST asks for), also posted without its `nvcc fatal   :` prefix:
  // `Unsupported gpu architecture 'compute_75'`, `Value 'sm_90a' is not defined for option
  // 'gpu-architecture'`.
  for (std::string_view marker : {std::string_view("Unsupported gpu architecture '"),
                                  std::string_view("is not defined for option 'gpu-architecture'")})
    if (const auto at = s.find(marker); at != k_npos && (at == 0 || marker.front() == 'i')) {
      d.tool = "nvcc";
      d.problem = "compile error";
      d.subject = std::string(quoted(at == 0 ? s : s.substr(0, at)));
      d.message = std::string(s);
      return d;
    }
  // LLVM's fatal error (report_fatal_error), as the compiler inside Triton prints it when it
  // cannot compile a kernel: `LLVM ERROR: Cannot select: ...`.
  if (s.starts_with("LLVM ERROR: ")) {
    d.problem = "compiler crash";
    d.tool = "LLVM";
    d.subject = "LLVM";
    d.message = std::string(util::trim(s.substr(12)));
    return d;
  }
  // A preprocessor `#error` directive quoted alone, without the compiler's `file:line:col: error:`
  // line above it (a post that kept only the directive's text): the compile stopped there. The
  // compiler's own excerpt of it (`   35 | #error ...`) starts with the line number, not read here.
  if (s.starts_with("#error ") || s.starts_with("# error ")) {
    d.bare = true;
    d.problem = "error directive";
    d.message = std::string(s);
    return d;
  }
  // pip's summary of a package whose build failed: `ERROR: Failed building wheel for torchao`.
  if (const auto at = s.find("Failed building wheel for "); at != k_npos && at <= 7) {
    d.problem = "compiler failed";
    d.tool = "pip";
    d.subject = std::string(util::first_word(s.substr(at + 26)));
    d.message = std::string(s);
    return d;
  }
  // distutils / setuptools running a compiler (torch.utils.cpp_extension builds through them):
  // `unable to execute '/x/bin/nvcc': No such file or directory`, then
  // `error: command '/x/bin/nvcc' failed with exit status 1`.
  if (s.starts_with("unable to execute '") || s.starts_with("error: command '")) {
    const auto open = s.find('\'');
    const auto close = s.find('\'', open + 1);
    if (close == k_npos) return std::nullopt;
    const auto command = s.substr(open + 1, close - open - 1);
    const auto rest = s.substr(close + 1);
    if (s.starts_with("unable to execute '") && rest.starts_with(": ")) {
      d.problem = rest.find("No such file or directory") != k_npos ? "missing compiler"
                                                                   : "compiler not runnable";
    } else if (s.starts_with("error: command '") && rest.starts_with(" failed with exit ")) {
      d.problem = "compiler failed";
    } else {
      return std::nullopt;
    }
    d.tool = std::string(basename_of(command));
    d.subject = std::string(command);
    d.message = std::string(s);
    return d;
  }
  // `<where>: error: <message>` / `<where>: fatal error: <message>` / MSVC `<where>: error C2065:
  // ...`.
  std::size_t at = k_npos, message_at = k_npos;
  bool fatal = false;
  for (std::string_view marker : {": fatal error", ": error"}) {
    for (auto pos = s.find(marker); pos != k_npos; pos = s.find(marker, pos + 1)) {
      auto tail = s.substr(pos + marker.size());
      std::size_t skip = marker.size();
      if (tail.starts_with(" C") && tail.size() > 2 && util::is_digit(tail[2])) {  // MSVC's code
        const auto code = tail.find(':');
        if (code == k_npos) continue;
        skip += code;
        tail = tail.substr(code);
      }
      if (!tail.starts_with(": ") && tail != ":") continue;
      if (at == k_npos || pos < at)
        at = pos, message_at = pos + skip + 1, fatal = marker == ": fatal error";
      break;
    }
  }
  if (at == k_npos) {
    // A bare `error: ...` at the start of a line: a compiler's when its excerpt follows.
    for (std::string_view marker : {"fatal error: ", "error: "})
      if (s.starts_with(marker)) {
        d.bare = true;
        d.message = std::string(util::trim(s.substr(marker.size())));
        classify_message(d, marker == "fatal error: ");
        return d;
      }
    return std::nullopt;
  }
  d.message = std::string(util::trim(s.substr(std::min(message_at, s.size()))));
  const auto prefix = s.substr(0, at);
  // GCC's pseudo-files: an `-include`d header or a `-D` on the command line (`<command-line>:
  // fatal error: cuda_runtime.h: No such file or directory`), its built-in definitions.
  if (prefix == "<command-line>" || prefix == "<built-in>") {
    d.file = std::string(prefix);
    classify_message(d, fatal);
    return d;
  }
  if (!split_location(prefix, d.file, d.line)) {
    if (!is_build_tool(prefix)) return std::nullopt;
    d.tool = std::string(basename_of(prefix));
  }
  classify_message(d, fatal);
  return d;
}

bool is_compiler_excerpt(std::string_view line) {
  const auto s = util::trim(line);
  const auto number = util::digits_at(s, 0);
  return !number.empty() && s.substr(number.size()).starts_with(" |");
}

std::string_view include_chain_file(std::string_view line) {
  auto s = util::trim(line);
  if (s.starts_with("In file included from "))
    s.remove_prefix(22);
  else if (s.starts_with("from ") && line.starts_with("    "))
    s.remove_prefix(5);
  else
    return {};
  if (s.ends_with(',') || s.ends_with(':')) s.remove_suffix(1);
  // `path:17` (GCC also prints a column on some versions: `path:17:10`).
  std::string file;
  int number = 0;
  if (!split_location(s, file, number)) return {};
  return s.substr(0, file.size());
}

std::optional<CompilerCommand> compiler_command(std::string_view line) {
  std::string_view s = util::trim(line);
  static constexpr std::array<std::string_view, 8> k_sources = {".cpp", ".cc",  ".cxx", ".cu",
                                                                ".c",   ".ptx", ".o",   ".cubin"};
  const auto is_source = [](std::string_view arg) {
    for (auto ext : k_sources)
      if (arg.size() > ext.size() && arg.ends_with(ext) && ext != ".o" && ext != ".cubin")
        return true;
    return false;
  };
  CompilerCommand command;
  // subprocess.CalledProcessError: Command '['nvcc', '-fatbin', 'a.ptx', ...]' returned non-zero
  // exit status 255.
  if (const auto at = s.find("Command '["); at != k_npos) {
    auto list = s.substr(at + 10);
    const auto end = list.find("]' returned non-zero exit status ");
    if (end != k_npos) {
      command.status = std::string(util::digits_at(list, end + 33));
      list = list.substr(0, end);
    }
    bool next_is_output = false;
    for (std::size_t i = 0; i < 4096 && !list.empty(); ++i) {
      const auto open = list.find('\'');
      if (open == k_npos) break;
      const auto close = list.find('\'', open + 1);
      if (close == k_npos) break;
      const auto arg = list.substr(open + 1, close - open - 1);
      list = list.substr(close + 1);
      if (command.compiler.empty()) {
        if (!is_compiler_name(arg)) return std::nullopt;
        command.compiler = std::string(basename_of(arg));
      } else if (next_is_output) {
        command.output = std::string(arg), next_is_output = false;
      } else if (arg == "-o") {
        next_is_output = true;
      } else if (command.source.empty() && is_source(arg)) {
        command.source = std::string(arg);
      }
    }
    if (command.compiler.empty()) return std::nullopt;
    return command;
  }
  // An echoed command: shell trace (`+ g++ ...`) or prompt (`$ g++ ...`) markers first.
  for (std::string_view marker : {"+ ", "$ ", "> "})
    if (s.starts_with(marker)) s = util::trim(s.substr(marker.size()));
  // A compiler cache or distributor runs the compiler named after it (`sccache /usr/bin/c++ ...`).
  for (std::string_view launcher : {"sccache", "ccache", "distcc", "icecc"})
    if (basename_of(util::first_word(s)) == launcher)
      s = util::trim(s.substr(util::first_word(s).size()));
  const auto compiler = util::first_word(s);
  if (compiler.empty() || !is_compiler_name(compiler)) return std::nullopt;
  command.compiler = std::string(basename_of(compiler));
  bool next_is_output = false;
  std::string_view rest = s.substr(compiler.size());
  while (!(rest = util::trim(rest)).empty()) {
    const auto arg = util::first_word(rest);
    rest = rest.substr(arg.size());
    if (next_is_output)
      command.output = std::string(arg), next_is_output = false;
    else if (arg == "-o")
      next_is_output = true;
    else if (command.source.empty() && is_source(arg))
      command.source = std::string(arg);
  }
  // A command compiles something: prose that starts with "cc" or "gcc" does not.
  if (command.source.empty() && command.output.empty()) return std::nullopt;
  return command;
}

std::optional<LoadFailure> load_failure(std::string_view line) {
  const std::string_view s = util::trim(line);
  LoadFailure f;
  // The library a dlerror message names comes first: `<lib>: <reason>`. Before it, whatever the
  // caller prefixed (`ImportError: `, `OSError: `, `Error in dlopen: `).
  const auto library_before = [&](std::size_t at) {
    auto before = util::trim(s.substr(0, at));
    if (const auto colon = before.rfind(": "); colon != k_npos) before = before.substr(colon + 2);
    return std::string(util::last_word(before));
  };
  if (const auto at = s.find(": undefined symbol: "); at != k_npos) {
    f.problem = "undefined symbol";
    f.library = library_before(at);
    auto symbol = s.substr(at + 20);
    f.detail = std::string(symbol.substr(0, symbol.find_first_of(", ")));
    return f;
  }
  if (const auto at = s.find(": cannot open shared object file"); at != k_npos) {
    f.problem = "missing library";
    f.detail = library_before(at);
    f.library = f.detail;
    return f;
  }
  // glibc: `/lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.32' not found (required by
  // x.so)`.
  if (const auto at = s.find(": version "); at != k_npos) {
    const auto version = quoted(s.substr(at + 10));
    // ` not found (required by x)`, possibly on the next line when a paste broke this one.
    const bool stated =
        s.find(" not found", at) != k_npos ||
        (!version.empty() && util::trim(s.substr(at + 10)).size() <= version.size() + 2 + 4);
    if (!version.empty() && stated && version.find('_') != k_npos) {
      f.problem = "missing symbol version";
      f.library = library_before(at);
      f.detail = std::string(version);
      f.required_by = std::string(util::between(s.substr(at), "(required by ", ")"));
      return f;
    }
  }
  if (const auto at = s.find(": wrong ELF class: "); at != k_npos) {
    f.problem = "wrong ELF class";
    f.library = library_before(at);
    f.detail = std::string(util::first_word(s.substr(at + 19)));
    return f;
  }
  if (const auto at = s.find(": invalid ELF header"); at != k_npos) {
    f.problem = "invalid ELF header";
    f.library = library_before(at);
    return f;
  }
  // c10's Dispatcher::findSchemaOrThrow: `Could not find schema for <name>.<overload>`.
  if (const auto at = s.find("Could not find schema for "); at != k_npos) {
    f.problem = "missing op schema";
    auto op = s.substr(at + 26);
    op = op.substr(0, op.find_first_of(" ,"));
    if (const auto dot = op.find('.'); dot != k_npos) op = op.substr(0, dot);
    f.detail = std::string(op);
    return f;
  }
  // The package loader's own (torch/csrc/inductor/aoti_package/model_package_loader.cpp): no model
  // inside the .pt2 under the name asked for, or a file that is not a readable zip.
  if (const auto at = s.find("No AOTInductor generate cpp file or so file found in zip archive");
      at != k_npos) {
    f.problem = "no model in package";
    return f;
  }
  if (const auto at = s.find("Failed to initialize zip archive: "); at != k_npos) {
    f.problem = "unreadable package";
    f.detail = std::string(util::trim(s.substr(at + 34)));
    return f;
  }
  // ATen's DynamicLibrary without one of the reasons above: `Error in dlopen: <dlerror>`.
  if (const auto at = s.find("Error in dlopen"); at != k_npos) {
    f.problem = "dlopen failed";
    auto rest = s.substr(at);
    if (const auto colon = rest.find(": "); colon != k_npos)
      f.detail = std::string(util::trim(rest.substr(colon + 2)));
    return f;
  }
  return std::nullopt;
}

// IPython's and Jupyter's frames: `File /x/cuda.py:216, in checkCUStatus(error)` (IPython 8) and
// `/x/cuda.py in checkCUStatus(error)` / `<ipython-input-3-5e2c> in <module>` (older), whose line
// comes later, on the listing's `--> 216` line.
std::optional<PythonFrame> ipython_frame(std::string_view s) {
  PythonFrame frame;
  std::string_view where, call;
  if (s.starts_with("File ") && !s.starts_with("File \"")) {
    const auto in = s.find(", in ");
    if (in == k_npos) return std::nullopt;
    where = s.substr(5, in - 5);
    call = s.substr(in + 5);
    const auto colon = where.rfind(':');
    const auto number = colon == k_npos ? std::string_view{} : where.substr(colon + 1);
    if (number.empty() || util::digits_at(number, 0).size() != number.size()) return std::nullopt;
    frame.line = util::to_int(number).value_or(0);
    where = where.substr(0, colon);
  } else {
    const auto in = s.find(" in ");
    if (in == k_npos) return std::nullopt;
    where = s.substr(0, in);
    call = s.substr(in + 4);
    if (where.find(' ') != k_npos) return std::nullopt;
  }
  const bool notebook_cell = where.starts_with("<ipython-input-") && where.ends_with(">");
  if (!where.ends_with(".py") && !notebook_cell) return std::nullopt;
  const auto open = call.find('(');
  frame.function = std::string(util::trim(call.substr(0, open)));
  if (frame.function.empty() || frame.function.find(' ') != k_npos ||
      (open == k_npos && frame.function != "<module>"))
    return std::nullopt;
  frame.file = std::string(where);
  return frame;
}

std::optional<PythonFrame> python_frame(std::string_view line) {
  const auto s = util::trim(line);
  if (auto frame = ipython_frame(s)) return frame;
  // torch.export.draft_export's report: `File /x/y.py, lineno 98, in _base_distribution`.
  if (s.starts_with("File ") && !s.starts_with("File \"")) {
    const auto at = s.find(", lineno ");
    if (at == k_npos || at <= 5) return std::nullopt;
    PythonFrame frame;
    frame.file = std::string(s.substr(5, at - 5));
    const auto number = util::digits_at(s, at + 9);
    if (number.empty()) return std::nullopt;
    frame.line = util::to_int(number).value_or(0);
    if (const auto in = s.find(", in ", at + 9); in != k_npos)
      frame.function = std::string(util::trim(s.substr(in + 5)));
    return frame;
  }
  if (!s.starts_with("File \"")) {
    // TorchScript's traced call site: `/x/debug.py(5): forward`.
    if (const auto close = s.find("): "); close != k_npos && s.find(' ') > close) {
      const auto open = s.rfind('(', close);
      const auto number =
          open == k_npos ? std::string_view{} : s.substr(open + 1, close - open - 1);
      if (open != k_npos && s.substr(0, open).ends_with(".py") && !number.empty() &&
          util::digits_at(number, 0).size() == number.size()) {
        PythonFrame frame;
        frame.file = std::string(s.substr(0, open));
        frame.line = util::to_int(number).value_or(0);
        frame.function = std::string(util::trim(s.substr(close + 3)));
        frame.innermost_first = true;
        if (!frame.function.empty() && frame.function.find(' ') == std::string::npos) return frame;
      }
    }
    // pytest's short traceback: `/x/torchvision/_meta_registrations.py:164: in <module>`.
    if (const auto in = s.find(": in "); in != k_npos && s.find(' ') == in + 1) {
      const auto colon = s.rfind(':', in - 1);
      const auto number =
          colon == k_npos ? std::string_view{} : s.substr(colon + 1, in - colon - 1);
      if (colon != k_npos && s.substr(0, colon).ends_with(".py") && !number.empty() &&
          util::digits_at(number, 0).size() == number.size()) {
        PythonFrame frame;
        frame.file = std::string(s.substr(0, colon));
        frame.line = util::to_int(number).value_or(0);
        frame.function = std::string(util::trim(s.substr(in + 5)));
        if (!frame.function.empty() && frame.function.find(' ') == std::string::npos) return frame;
      }
    }
    // A frame whose start the paste cut off: `...ers/transformer_flux.py", line 519, in forward`.
    const auto cut = s.find(".py\", line ");
    if (cut == k_npos || s.find("File \"") != k_npos) return std::nullopt;
    const auto space = s.rfind(' ', cut);
    auto start = space == k_npos ? 0 : space + 1;
    while (start < cut && s[start] == '.') ++start;  // `...` marks where the paste cut it
    PythonFrame frame;
    frame.file = std::string(s.substr(start, cut + 3 - start));
    const auto number = util::digits_at(s, cut + 11);
    if (number.empty() || frame.file.find('/') == std::string::npos) return std::nullopt;
    frame.line = util::to_int(number).value_or(0);
    if (const auto in = s.find(", in ", cut + 11 + number.size()); in != k_npos)
      frame.function = std::string(util::trim(s.substr(in + 5)));
    return frame;
  }
  const auto close = s.find('"', 6);
  if (close == k_npos || !s.substr(close).starts_with("\", line ")) return std::nullopt;
  PythonFrame frame;
  frame.file = std::string(s.substr(6, close - 6));
  const auto number = util::digits_at(s, close + 8);
  if (number.empty()) return std::nullopt;
  frame.line = util::to_int(number).value_or(0);
  if (const auto in = s.find(", in ", close + 8 + number.size()); in != k_npos)
    frame.function = std::string(util::trim(s.substr(in + 5)));
  else if (s.substr(close + 8 + number.size()).starts_with(" in "))
    // faulthandler's stacks: `File "/x/ctypes/__init__.py", line 376 in __init__`.
    frame.function = std::string(util::trim(s.substr(close + 12 + number.size())));
  return frame;
}

namespace {

// glibc backtrace_symbols(): `module(symbol+0xoffset) [0xaddress]`, `module(+0xoffset) [0x...]`
// without a symbol, `module [0x...]` without either. The symbol is demangled only when the program
// demangled it (k2's and folly's printers do); it may hold parentheses of its own.
std::optional<NativeFrame> backtrace_symbols_frame(std::string_view s) {
  const auto address = s.rfind(" [0x");
  if (address == k_npos || address == 0) return std::nullopt;
  auto body = s.substr(0, address);
  NativeFrame frame;
  if (body.ends_with(')')) {
    // The module ends at the first '(' after its last path separator.
    const auto slash = body.find_last_of('/', body.find('('));
    const auto open = body.find('(', slash == k_npos ? 0 : slash);
    const auto offset = body.rfind("+0x");
    if (open == k_npos || offset == k_npos || offset < open) return std::nullopt;
    frame.module = std::string(body.substr(0, open));
    frame.symbol = std::string(body.substr(open + 1, offset - open - 1));
  } else {
    frame.module = std::string(body);
  }
  // A module is one path: a library (`.so`) or a program, no spaces.
  if (frame.module.empty() || frame.module.find(' ') != std::string::npos ||
      (frame.module.find(".so") == std::string::npos &&
       frame.module.find('/') == std::string::npos))
    return std::nullopt;
  if (frame.symbol.empty()) frame.symbol = "<unknown function>";
  return frame;
}

}  // namespace

std::optional<NativeFrame> native_frame(std::string_view line) {
  const auto s = util::trim(line);
  NativeFrame frame;
  if (s.starts_with("frame #")) {
    // c10: `frame #4: torch::f() + 0x49c (0x72167c8d833c in /tmp/x.so)`.
    const auto colon = s.find(": ");
    if (colon == k_npos || util::digits_at(s, 7).empty()) return std::nullopt;
    auto body = s.substr(colon + 2);
    // lldb: `frame #0: 0x0000000106438cf0 libomp.dylib`__kmp_suspend_64<false, true>(int) + 48`.
    if (const auto tick = body.find('`'); body.starts_with("0x") && tick != k_npos) {
      const auto space = body.find(' ');
      if (space == k_npos || space > tick) return std::nullopt;
      frame.module = std::string(body.substr(space + 1, tick - space - 1));
      auto symbol = body.substr(tick + 1);
      if (const auto plus = symbol.rfind(" + "); plus != k_npos) symbol = symbol.substr(0, plus);
      frame.symbol = std::string(util::trim(symbol));
      frame.from_gdb = true;  // a debugger's frame: it belongs to the stop it reports
      return frame.symbol.empty() || frame.module.empty() ? std::nullopt : std::optional(frame);
    }
    const auto offset = body.rfind(" + 0x");
    const auto paren = body.rfind(" (0x");
    frame.symbol = std::string(util::trim(body.substr(0, std::min(offset, paren))));
    if (paren != k_npos) {
      auto where = body.substr(paren);
      if (const auto in = where.find(" in "); in != k_npos) {
        auto module = where.substr(in + 4);
        if (module.ends_with(')')) module.remove_suffix(1);
        frame.module = std::string(module);
      }
    }
    return frame.symbol.empty() ? std::nullopt : std::optional(frame);
  }
  if (s.ends_with(']')) return backtrace_symbols_frame(s);
  // gdb: `#0  0x00007fffe511d3ed in f (args) at file.cpp:120` or `#1  f (args) at file.cpp:120`.
  if (s.size() < 3 || s[0] != '#' || util::digits_at(s, 1).empty()) return std::nullopt;
  auto body = util::trim(s.substr(1 + util::digits_at(s, 1).size()));
  if (body.empty()) return std::nullopt;
  if (body.starts_with("0x")) {
    const auto in = body.find(" in ");
    if (in == k_npos) return std::nullopt;
    body = body.substr(in + 4);
  }
  frame.from_gdb = true;
  // A sanitizer's frame without debug information: `#0 0x1213f0cf0 in f(int)+0x30
  // (libomp.dylib:arm64+0x54cf0)`, the module and offset in the last parentheses. (With debug
  // information, `#2 0x4f1a in f(int) /src/x.cpp:12:3`, the gdb reading below applies.)
  if (const auto open = body.rfind(" ("); body.ends_with(')') && open != k_npos) {
    auto inside = body.substr(open + 2, body.size() - open - 3);
    const auto plus = inside.rfind("+0x");
    if (plus != k_npos && plus > 0) {
      auto module = inside.substr(0, plus);
      // `libomp.dylib:arm64`, `libc.so.6:x86_64`: the architecture after the module.
      if (const auto colon = module.rfind(':');
          colon != k_npos && module.find('/', colon) == k_npos && colon + 1 < module.size() &&
          util::is_identifier_char(module[colon + 1]))
        module = module.substr(0, colon);
      auto symbol = util::trim(body.substr(0, open));
      if (const auto offset = symbol.rfind("+0x"); offset != k_npos)
        symbol = symbol.substr(0, offset);
      frame.symbol = std::string(symbol);
      frame.module = std::string(module);
      return frame.symbol.empty() ? std::nullopt : std::optional(frame);
    }
  }
  const auto args = body.find(" (");
  frame.symbol = std::string(util::trim(body.substr(0, args)));
  if (const auto at = body.rfind(" at "); at != k_npos && args != k_npos && at > args)
    frame.module = std::string(util::trim(body.substr(at + 4)));
  else if (const auto from = body.rfind(" from "); from != k_npos)
    frame.module = std::string(util::trim(body.substr(from + 6)));
  // A numbered line that is not a frame: "#1 of 3", a Markdown heading.
  if (frame.symbol.empty() ||
      (frame.symbol.find(' ') != k_npos && frame.symbol.find('(') == k_npos &&
       frame.symbol.find('<') == k_npos))
    return std::nullopt;
  return frame;
}

std::string_view exception_type_at_start(std::string_view line) {
  std::size_t end = 0;
  while (end < line.size()) {
    const char c = line[end];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || util::is_digit(c) || c == '_' ||
          c == '.'))
      break;
    ++end;
  }
  const auto type = line.substr(0, end);
  if (type.empty() || type.back() == '.' || type.front() == '.') return {};
  const auto last = type.substr(type.rfind('.') == k_npos ? 0 : type.rfind('.') + 1);
  if (last.empty() || last[0] < 'A' || last[0] > 'Z') return {};
  if (end < line.size() && line[end] != ':') return {};
  return type;
}

std::string_view shared_object_in(std::string_view line) {
  for (std::string_view suffix : {".so", ".pyd", ".dylib", ".dll"}) {
    for (std::size_t at = line.find(suffix); at != k_npos; at = line.find(suffix, at + 1)) {
      std::size_t end = at + suffix.size();
      // `.so.6`: a version after the suffix.
      while (suffix == ".so" && end + 1 < line.size() && line[end] == '.' &&
             util::is_digit(line[end + 1])) {
        end += 2;
        while (end < line.size() && util::is_digit(line[end])) ++end;
      }
      if (end < line.size() && (util::is_identifier_char(line[end]) || line[end] == '-')) continue;
      std::size_t start = at;
      while (start > 0 && line[start - 1] != ' ' && line[start - 1] != '\'' &&
             line[start - 1] != '"' && line[start - 1] != '(' && line[start - 1] != '[' &&
             line[start - 1] != ':' && line[start - 1] != '`')
        --start;
      if (start == at) continue;  // a bare ".so" in prose
      return line.substr(start, end - start);
    }
  }
  return {};
}

}  // namespace aoti::parsers::logs
