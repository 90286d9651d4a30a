// load.library-failed: a model .so / .pt2 or a custom-op library failed to load: the dynamic
// loader's reason (undefined symbol, missing library, symbol version, ELF class), a custom op whose
// library was never loaded, or kernel files missing where the model .so looks for them.
#include "checks/load/library_failed.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "checks/support/commands.hpp"
#include "checks/support/failures.hpp"
#include "checks/support/finding.hpp"
#include "torch/error_messages.hpp"
#include "util/demangle.hpp"
#include "util/text.hpp"

namespace aoti::checks {
namespace {
using namespace aoti::model;
namespace fl = failures;

std::string basename_of(std::string_view path) {
  const auto slash = path.find_last_of('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

// The name of a demangled function without its parameters: "at::_ops::to_dtype_layout::call".
std::string function_name(const std::string& demangled) {
  int depth = 0;
  for (std::size_t i = 0; i < demangled.size(); ++i) {
    if (demangled[i] == '<')
      ++depth;
    else if (demangled[i] == '>')
      --depth;
    else if (demangled[i] == '(' && depth == 0)
      return demangled.substr(0, i);
  }
  return demangled;
}

const LogEvent* final_exception(const Case& c, const LogEvent& e) {
  for (const auto& other : c.log_events)
    if (other.kind == LogEventKind::python_exception && other.where.artifact == e.where.artifact &&
        other.final)
      return &other;
  return nullptr;
}

std::optional<Finding> from_loader(const Case& c, const LogEvent& e) {
  Finding f = new_finding(LoadLibraryFailedCheck::k_info, Severity::error, 0.9);
  f.explains_failure = true;
  const std::string library = e.subject.empty() ? "" : fmt::format("`{}`", e.subject);
  const std::string lib_word = e.subject.empty() ? "the library" : library;
  f.evidence.push_back(event_evidence(e, "the loader's error"));
  if (e.problem == "undefined symbol") {
    const std::string plain = util::demangle(e.value);
    const std::string name = function_name(plain);
    f.subject = "load undefined symbol " + e.value;
    f.title = fmt::format("{} failed to load: undefined symbol `{}`",
                          e.subject.empty() ? "A library" : basename_of(e.subject), name);
    f.message = fmt::format("The dynamic loader could not resolve `{}`{} that {} needs.", plain,
                            plain != e.value ? fmt::format(" (`{}`)", e.value) : "", lib_word);
    if (e.value.starts_with("aoti_torch_")) {
      f.why = fmt::format(
          "`{}` is a function of AOTI's C shim in libtorch. A model .so built by a newer torch "
          "calls shim "
          "functions that an older torch does not have: load the package with the torch version "
          "that "
          "built it (or a newer one), or rebuild it with the torch that runs it.",
          e.value);
      f.next_steps = {{"compare the torch that runs the model with the one that built it",
                       "python -c \"import torch; print(torch.__version__)\""}};
    } else if (plain.starts_with("at::") || plain.starts_with("c10::") ||
               plain.starts_with("torch::") || plain.find(" at::") != std::string::npos ||
               plain.find(" c10::") != std::string::npos) {
      f.why = fmt::format(
          "`{}` is a C++ function of PyTorch itself: {} was built against another torch version "
          "than the "
          "one installed, and PyTorch's C++ ABI changes between versions. Install the torch "
          "version the "
          "library was built for, or rebuild the library against the installed torch.",
          name, lib_word);
      f.next_steps = {{"see the installed torch version",
                       "python -c \"import torch; print(torch.__version__)\""}};
    } else {
      f.why = fmt::format(
          "{} expects a library that defines `{}` to be loaded first (or linked), and none in the "
          "process does.",
          lib_word, name);
    }
    if (!e.subject.empty())
      f.next_steps.push_back({"list every symbol the library cannot resolve",
                              fmt::format("ldd -r {}", shell_word(e.subject))});
    if (plain != e.value)
      f.next_steps.push_back(
          {"demangle the symbol", fmt::format("c++filt {}", shell_word(e.value))});
    f.chain = {basename_of(e.subject), "needs " + name, "not defined", "load failed"};
  } else if (e.problem == "missing library") {
    f.subject = "load missing library " + e.value;
    f.title = fmt::format("A library could not be loaded: `{}` was not found", e.value);
    f.message = fmt::format(
        "The dynamic loader found no `{}` on its search path (the RPATH, LD_LIBRARY_PATH, the "
        "system "
        "library directories).",
        e.value);
    f.why =
        "Either the file is missing, or it is installed where the loader does not look; a library "
        "another one "
        "depends on must be found the same way.";
    f.next_steps = {{"see whether the system knows the library",
                     fmt::format("ldconfig -p | grep {}", shell_word(basename_of(e.value)))},
                    {"see the search path the process had", "echo \"$LD_LIBRARY_PATH\""}};
    f.chain = {e.value, "not found", "load failed"};
  } else if (e.problem == "missing symbol version") {
    f.subject = "load symbol version " + e.value;
    f.title =
        fmt::format("{} needs `{}`, which {} does not provide",
                    e.source_file.empty() ? "A library" : "`" + basename_of(e.source_file) + "`",
                    e.value, e.subject.empty() ? "the system library" : "`" + e.subject + "`");
    f.message = fmt::format("{} was built against a newer {} than the one the loader found{}.",
                            e.source_file.empty() ? "The library" : "`" + e.source_file + "`",
                            e.value.substr(0, e.value.find('_')),
                            e.subject.empty() ? "" : fmt::format(" (`{}`)", e.subject));
    f.why =
        "Symbol versions only grow: a binary built with a newer compiler or C library needs that "
        "library's newer "
        "version at run time. Run it where that version is installed (or put the newer library "
        "first on "
        "LD_LIBRARY_PATH, e.g. a conda environment's libstdc++), or rebuild it with the older "
        "toolchain.";
    if (!e.subject.empty())
      f.next_steps = {{fmt::format("list the versions `{}` provides", basename_of(e.subject)),
                       fmt::format("strings {} | grep {}", shell_word(e.subject),
                                   shell_word(e.value.substr(0, e.value.find('_')) + "_"))}};
    f.chain = {basename_of(e.source_file.empty() ? "library" : e.source_file), "needs " + e.value,
               "load failed"};
  } else if (e.problem == "wrong ELF class" || e.problem == "invalid ELF header") {
    f.subject = "load elf " + e.subject;
    f.title = fmt::format("{} is not a loadable library for this machine ({})",
                          e.subject.empty() ? "A library" : "`" + basename_of(e.subject) + "`",
                          e.problem);
    f.message = fmt::format("The dynamic loader refused {}: {}{}.", lib_word, e.problem,
                            e.value.empty() ? "" : " " + e.value);
    f.why = e.problem == "wrong ELF class"
                ? "The file was built for another word size (32-bit vs 64-bit) than the process."
                : "The file is not an ELF shared object at all: a truncated download, a Git LFS "
                  "pointer, or a file of "
                  "another platform.";
    if (!e.subject.empty())
      f.next_steps = {{"see what the file is", fmt::format("file {}", shell_word(e.subject))}};
    f.chain = {basename_of(e.subject), e.problem, "load failed"};
  } else if (e.problem == "missing op schema") {
    const std::string op = e.value;
    const std::string ns = op.substr(0, op.find("::"));
    f.subject = "load op " + op;
    f.title = fmt::format(
        "The custom op `{}` is not registered in the process: its library was not loaded", op);
    f.message = fmt::format(
        "The dispatcher has no schema for `{}`: nothing in the process defined it when the model "
        "looked it up.",
        op);
    f.why =
        "An AOTI package does not contain custom-op libraries: the model calls custom ops through "
        "the dispatcher "
        "(the proxy executor), so the library that defines the op must be loaded before the model "
        "runs — "
        "`torch.ops.load_library(...)` or importing its Python package, or linking it into a C++ "
        "runner. Ops "
        "defined in Python (`torch.library.custom_op`) exist only in a Python process that "
        "imported them: a "
        "C++ runner cannot find them.";
    f.next_steps = {
        {fmt::format("find where `{}` is defined", op),
         fmt::format("grep -rnE {} .",
                     shell_word(fmt::format("{}|TORCH_LIBRARY(_FRAGMENT)?\\({},", op, ns)))},
        {"then load that library before the model: `torch.ops.load_library(...)` on its .so, or "
         "import the Python "
         "package that registers the op; a C++ runner links it or dlopens it before creating the "
         "model",
         ""}};
    for (const auto& model : c.models)
      for (const auto& node : model.extern_nodes)
        if (node.target == op || node.target.starts_with(op + "."))
          f.evidence.push_back(fact(model.extern_nodes_where,
                                    fmt::format("extern node {} calls {}", node.index, node.target),
                                    "the package calls this op through the proxy executor"));
    f.chain = {"model calls " + op, "no schema in the dispatcher", "library not loaded"};
  } else if (e.problem == "no model in package" || e.problem == "unreadable package") {
    const bool unreadable = e.problem == "unreadable package";
    f.subject = "load package " + e.problem;
    f.title = unreadable
                  ? fmt::format("The package could not be opened as a zip archive{}",
                                e.value.empty() ? "" : ": `" + e.value + "`")
                  : "The package holds no AOTInductor model under the name it was loaded with";
    f.message = fmt::format("AOTIModelPackageLoader reported `{}`.", cut(e.text, 300));
    f.why = unreadable ? "A .pt2 package is a zip file: this one is truncated, not a package at "
                         "all (a Git LFS pointer, "
                         "an HTML error page), or was written by something else."
                       : "The loader looks for the model's .cpp or .so under "
                         "data/aotinductor/<model name>/ in the "
                         "package; the list after the message shows what the package holds instead "
                         "(another model name, "
                         "or a package made without AOTInductor).";
    // The package's path, where the user's line that loaded it names it in quotes.
    std::string package;
    for (const auto& other : c.log_events)
      if (other.where.artifact == e.where.artifact && other.kind == LogEventKind::python_exception)
        for (const auto& frame : other.frames)
          for (char quote : {'"', '\''})
            if (const auto end = frame.code.find(std::string(".pt2") + quote);
                end != std::string::npos && package.empty()) {
              const auto start = frame.code.rfind(quote, end);
              if (start != std::string::npos)
                package = frame.code.substr(start + 1, end + 4 - start - 1);
            }
    f.next_steps = {
        {"list what the package holds", package.empty() ? "" : "unzip -l " + shell_word(package)}};
    if (package.empty())
      f.next_steps[0].what = "list what the package holds (`unzip -l` on the .pt2)";
    f.chain = {"package", e.problem, "load failed"};
  } else if (e.problem == "mmap failed") {
    // strace's `mmap(NULL, <length>, <prot>, <flags>, <fd>, <offset>) = -1 EINVAL (Invalid
    // argument)`.
    std::string offset;
    if (const auto open = e.text.find('('), close = e.text.rfind(") = ");
        open != std::string::npos && close != std::string::npos && close > open) {
      const std::string args = e.text.substr(open + 1, close - open - 1);
      const auto comma = args.rfind(',');
      offset = args.substr(comma == std::string::npos ? 0 : comma + 1);
      offset.erase(0, offset.find_first_not_of(' '));
    }
    f.subject = "load mmap " + e.value;
    f.title = fmt::format("Mapping `{}` failed with {}{}", basename_of(e.subject), e.value,
                          offset.empty() ? "" : fmt::format(" at file offset {}", offset));
    f.message =
        fmt::format("The process opened `{}` and its mmap of the file{} returned {}.", e.subject,
                    offset.empty() ? "" : fmt::format(" at offset {}", offset), e.value);
    f.why =
        e.value == "EINVAL"
            ? "mmap refuses a file offset that is not a multiple of the system's page size. An "
              "AOTI model .so "
              "keeps its weights inside the file, padded to a 16 KiB boundary, and maps them from "
              "there: on a "
              "kernel with larger pages (64 KiB on some aarch64 systems) that offset is not "
              "page-aligned."
            : "The loader or the AOTI runtime could not map the file; the error names the reason.";
    f.next_steps = {{"see the system's page size", "getconf PAGESIZE"}};
    f.chain = {basename_of(e.subject),
               "mmap " + (offset.empty() ? std::string("the file") : offset), e.value};
  } else {
    f.subject = "load dlopen " + cut(e.value, 80);
    f.title = fmt::format("A library failed to load: {}",
                          e.value.empty() ? "`Error in dlopen`" : "`" + cut(e.value, 140) + "`");
    f.message = fmt::format("The loader reported `{}`.", cut(e.text, 300));
    f.why = "The text after `Error in dlopen` is the dynamic loader's own reason.";
  }
  return f;
}

// `CUDA driver error: file not found`: cuModuleLoad did not find a kernel's .cubin file.
std::optional<Finding> missing_cubin(const Case&, const LogEvent& e) {
  Finding f = new_finding(LoadLibraryFailedCheck::k_info, Severity::error, 0.75);
  f.explains_failure = true;
  f.subject = "load cubin";
  f.title = "The model could not load its GPU kernels: a .cubin file was not found";
  f.message = fmt::format(
      "The CUDA driver reported `{}`. In an AOTI model .so, that is the error of `loadKernel`, "
      "which "
      "loads each Triton kernel from its .cubin file by the path recorded when the model was "
      "compiled.",
      e.text);
  f.why =
      "A bare model .so (from `torch._export.aot_compile`) keeps its kernels as .cubin files "
      "beside it, at the "
      "path of the compile: copied or run elsewhere, the files are not there. A .pt2 package "
      "carries its cubins "
      "and tells the runtime where it unpacked them.";
  f.evidence.push_back(event_evidence(e, "the driver's error"));
  f.next_steps = {{"package the model, which carries its kernels, and load the package",
                   "torch._inductor.aoti_compile_and_package(torch.export.export(model, args), "
                   "package_path=\"model.pt2\")",
                   "python"}};
  f.chain = {"loadKernel", ".cubin not found", "model cannot run"};
  return f;
}

// The innermost Python frames of a crash load a native library: ctypes' CDLL (what
// torch.ops.load_library calls), torch.ops.load_library itself, or the import system loading a C
// extension module. The process died inside the dynamic loader or the library's initializers.
const LogFrame* native_load_frame(const LogEvent& e) {
  for (auto frame = e.frames.rbegin(); frame != e.frames.rend(); ++frame) {
    if (frame->native) continue;
    if (frame->file.ends_with("ctypes/__init__.py") && frame->function == "__init__") continue;
    if (frame->file.find("importlib._bootstrap") != std::string::npos &&
        (frame->function == "create_module" || frame->function == "_call_with_frames_removed"))
      return &*frame;
    if (frame->function == "load_library" &&
        torch::subsystem_of(frame->file, frame->function) == torch::Subsystem::ops)
      return &*frame;
    return nullptr;
  }
  return nullptr;
}

std::optional<Finding> crash_while_loading(const Case& c, const LogEvent& e) {
  const LogFrame* load = native_load_frame(e);
  if (!load) return std::nullopt;
  Finding f = new_finding(LoadLibraryFailedCheck::k_info, Severity::error, 0.7);
  f.explains_failure = true;
  f.subject = "load crash " + load->function;
  const bool torch_load = load->function == "load_library";
  f.title = fmt::format("The process died ({}) while loading a native library{}", e.subject,
                        torch_load ? " with `torch.ops.load_library`" : " (a C extension import)");
  const LogFrame* caller = fl::innermost_caller(e);
  f.message = fmt::format(
      "Line {} of {} reports {}; the Python stack printed with it ends in `{}` ({}:{}){}: the "
      "library's own initializers or the dynamic loader ended the process.",
      e.where.line, e.where.artifact, e.value, load->function,
      load->file.substr(load->file.find_last_of('/') + 1), load->line,
      caller ? fmt::format(", called from {}:{}", caller->file, caller->line) : "");
  f.why =
      "A C++/CUDA extension built against another torch than the one installed can abort or crash "
      "while it loads, before any error can be raised: its static initializers register ops with "
      "a dispatcher whose C++ ABI changed. The usual cause is a wheel built for another torch "
      "version.";
  f.evidence.push_back(event_evidence(e, "the crash"));
  f.evidence.push_back(
      fl::line_evidence(e, load->log_line, load->text, "the library load it died in"));
  if (caller)
    f.evidence.push_back(
        fl::line_evidence(e, caller->log_line, caller->text, "the code that loaded it"));
  f.next_steps = {{"see the installed torch version, then install the extension built for it",
                   "python -c \"import torch; print(torch.__version__)\""}};
  if (const std::string script = fl::script_command(c, e.where.artifact); !script.empty())
    f.next_steps.push_back({"see which library it was and what the loader did last",
                            "LD_DEBUG=files " + script + " 2>&1 | tail -40"});
  f.chain = {caller ? caller->file.substr(caller->file.find_last_of('/') + 1) : "import",
             load->function, e.subject};
  return f;
}

// A shared object a line names (`x.so`, `x.cpython-312-x86_64-linux-gnu.so`, `x.pyd`, ...), "" if
// none: the same reading as the log reader's, over a finding's own lines.
std::string shared_object_of(const std::string& line) {
  for (std::string_view suffix : {".so", ".pyd", ".dylib", ".dll"}) {
    const auto at = line.find(suffix);
    if (at == std::string::npos) continue;
    auto start = line.find_last_of(" '\"([:`", at);
    start = start == std::string::npos ? 0 : start + 1;
    auto end = line.find_first_of(" '\",)]`", at);
    if (end == std::string::npos) end = line.size();
    if (start < at) return line.substr(start, end - start);
  }
  return "";
}

// An ImportError or OSError about a compiled library that dlerror's words do not state (an
// extension's own loader giving up on the .so it found).
std::optional<Finding> from_exception(const Case& c, const LogEvent& e) {
  std::string library;
  int library_line = 0;
  std::string library_text;
  if (library = shared_object_of(e.text); !library.empty()) {
    library_line = e.where.line, library_text = e.text;
  } else {
    for (std::size_t i = 0; i < e.detail.size() && library.empty(); ++i)
      if (library = shared_object_of(e.detail[i]); !library.empty())
        library_line = e.where.line + 1 + static_cast<int>(i),
        library_text = std::string(util::trim(e.detail[i]));
  }
  if (library.empty()) return std::nullopt;
  Finding f = new_finding(LoadLibraryFailedCheck::k_info, Severity::error, 0.7);
  f.explains_failure = true;
  f.subject = "load " + basename_of(library);
  const std::string type = e.subject.substr(e.subject.rfind('.') + 1);
  f.title = fmt::format("`{}` could not be loaded ({})", basename_of(library), type);
  const LogFrame* caller = fl::innermost_caller(e);
  f.message = fmt::format(
      "The run ended with `{}: {}`{}, and the message names the compiled library `{}`: it is "
      "there, but it did not load.",
      e.subject, cut(e.value.empty() ? "" : e.value, 200),
      caller ? fmt::format(", raised by {}:{}", caller->file, caller->line) : "", library);
  f.why =
      "An extension's library that is present but does not load was most often built for another "
      "torch (its C++ ABI changes between versions), another Python, or another GPU "
      "architecture than the ones installed.";
  f.evidence.push_back(event_evidence(e, "the exception"));
  if (library_line != e.where.line)
    f.evidence.push_back(fl::line_evidence(e, library_line, library_text, "the library it names"));
  if (caller)
    f.evidence.push_back(
        fl::line_evidence(e, caller->log_line, caller->text, "where it was raised"));
  f.next_steps = {{"load the library alone, to see the dynamic loader's own reason",
                   fmt::format("python -c \"import ctypes, torch; ctypes.CDLL('{}')\"", library)},
                  {"compare with the torch it was built for",
                   "python -c \"import torch; print(torch.__version__)\""}};
  f.chain = {basename_of(library), type, "not loaded"};
  return f;
}

// An installed package's own code failed to import a part of itself (`from torchao.prototype import
// mxfp8_cuda` in torchao: `cannot import name 'mxfp8_cuda' from 'torchao.prototype'`): the install
// lacks a module it should hold, most often a compiled extension its build left out.
std::optional<Finding> from_missing_module(const LogEvent& e) {
  if (e.frames.empty()) return std::nullopt;
  std::string package(util::between(e.value, "' from '", "'"));
  std::string name(util::between(e.value, "cannot import name '", "'"));
  if (package.empty()) {
    const std::string named(util::between(e.value, "No module named '", "'"));
    const auto dot = named.rfind('.');
    if (dot == std::string::npos) return std::nullopt;
    package = named.substr(0, dot), name = named.substr(dot + 1);
  }
  if (package.empty() || name.empty()) return std::nullopt;
  const LogFrame& frame = e.frames.back();
  Finding f = new_finding(LoadLibraryFailedCheck::k_info, Severity::error, 0.55);
  f.explains_failure = true;
  const std::string top = package.substr(0, package.find('.'));
  f.subject = "missing module " + package + "." + name;
  f.title = fmt::format("The installed `{}` lacks its own module `{}` (`{}`)", top, name, package);
  f.message = fmt::format(
      "The run ended with `{}: {}`, raised by {}:{}{}: the package's own code importing a part of "
      "itself. Inferred: this install of `{}` does not hold `{}.{}`, a module it is built with "
      "(a compiled extension its build left out for this GPU, CUDA or torch, or a partial "
      "install).",
      e.subject, cut(e.value, 200), frame.file, frame.line,
      frame.code.empty() ? "" : fmt::format(" (`{}`)", frame.code), top, package, name);
  f.why =
      "A package whose compiled parts are built at install time (CUDA kernels, C++ extensions) "
      "ships without the ones its build skipped; the import that needs one fails the first time "
      "the code path that uses it is imported.";
  f.evidence.push_back(event_evidence(e, "the exception"));
  f.evidence.push_back(
      fl::line_evidence(e, frame.log_line, frame.text, "the package's own import"));
  if (!frame.code.empty()) f.evidence.push_back(fl::code_evidence(e, frame, "the import"));
  f.next_steps = {
      {fmt::format("list what the installed `{}` holds", package),
       fmt::format("python -c \"import importlib, os; m = importlib.import_module('{}'); "
                   "print(sorted(os.listdir(os.path.dirname(m.__file__))))\"",
                   package)},
      {fmt::format("see which `{}` is installed, and how it was built", top),
       fmt::format("pip show {}", top)}};
  f.chain = {top, "import " + name, "not installed"};
  return f;
}

// The dispatcher did not find an op (`operator torchvision::nms does not exist`) that Python code
// registers a kernel for or calls: the compiled library that defines the op's schema was not
// loaded (it failed to load, was built for another torch, or was never imported).
std::optional<Finding> from_unregistered_op(const LogEvent& e) {
  const std::string op(torch::unregistered_op_in(e.value));
  if (op.empty()) return std::nullopt;
  const std::string ns = op.substr(0, op.find("::"));
  Finding f = new_finding(LoadLibraryFailedCheck::k_info, Severity::error, 0.6);
  f.explains_failure = true;
  f.subject = "op not registered " + op;
  f.title =
      fmt::format("Operator `{}` is not registered: the library that defines it did not load", op);
  const LogFrame* caller = fl::innermost_caller(e);
  f.message = fmt::format(
      "The run ended with `{}: {}`{}. The op's schema comes from a compiled library (the `{}` "
      "package's extension) that registers it when loaded; the dispatcher does not know the op, "
      "so that library was not loaded in this process. Inferred: it failed to load (often built "
      "for another torch or CUDA than the one installed) or was never imported.",
      e.subject, cut(e.value, 200),
      caller ? fmt::format(", raised by {}:{}", caller->file, caller->line) : "", ns);
  f.why =
      "A package's Python code (its fake / meta registrations, its ops) assumes its own compiled "
      "library loaded first; when the wheel's binary does not match the installed torch it fails "
      "to load, sometimes silently, and the first use of one of its ops fails instead.";
  f.evidence.push_back(event_evidence(e, "the exception"));
  if (caller)
    f.evidence.push_back(
        fl::line_evidence(e, caller->log_line, caller->text, "where it was raised"));
  fl::add_user_frame_evidence(e, f.evidence);
  // The frames of the package itself: where its Python side used the op.
  for (auto frame = e.frames.rbegin(); frame != e.frames.rend(); ++frame)
    if (!frame->native && &*frame != caller &&
        frame->file.find("/" + ns + "/") != std::string::npos) {
      f.evidence.push_back(
          fl::line_evidence(e, frame->log_line, frame->text,
                            fmt::format("the `{}` package's code that used it", ns)));
      break;
    }
  f.next_steps = {
      {fmt::format("load the `{}` package's compiled libraries alone: the loader's error says "
                   "why they do not load",
                   ns),
       fmt::format("python -c \"import ctypes, glob, importlib.util, torch; d = "
                   "importlib.util.find_spec('{}').submodule_search_locations[0]; "
                   "[print(p, ctypes.CDLL(p)) for p in glob.glob(d + '/*.so')]\"",
                   ns)},
      {"compare the installed torch with the one the package's wheel was built for",
       fmt::format("python -m pip list 2>/dev/null | grep -iE '^(torch|{}) '", ns)}};
  f.chain = {ns, op, "not registered"};
  return f;
}

}  // namespace

std::vector<Finding> LoadLibraryFailedCheck::run(const Case& c) const {
  std::vector<Finding> out;
  std::vector<std::string> seen;  // one finding per artifact and reason
  for (const auto& e : c.log_events) {
    std::optional<Finding> f;
    if (e.kind == LogEventKind::load_error)
      f = from_loader(c, e);
    else if (e.kind == LogEventKind::cuda_error && e.subject == "CUDA driver error" &&
             e.value == "file not found")
      f = missing_cubin(c, e);
    else if (e.kind == LogEventKind::segfault)
      f = crash_while_loading(c, e);
    if (!f) continue;
    const std::string key = e.where.artifact + "\n" + f->subject;
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
    seen.push_back(key);
    // The exception that ended the run, when it is the same failure.
    for (const auto& other : c.log_events)
      if (other.kind == LogEventKind::python_exception &&
          other.where.artifact == e.where.artifact && other.where.line != e.where.line &&
          (fl::route_of(other) == fl::Route::load || other.final) &&
          fl::message_text(other).find(e.value.substr(0, 60)) != std::string::npos) {
        f->evidence.push_back(event_evidence(other, "the exception that ended the run"));
        fl::add_user_frame_evidence(other, f->evidence);
        break;
      }
    if (const LogEvent* exception = final_exception(c, e);
        exception && exception->where.line == e.where.line)
      fl::add_user_frame_evidence(*exception, f->evidence);
    out.push_back(std::move(*f));
  }
  // Exceptions about a library that no loader line of the same log explains.
  for (const auto& e : c.log_events) {
    if (e.kind == LogEventKind::python_exception && e.problem == "op not registered")
      if (auto f = from_unregistered_op(e)) {
        const std::string key = e.where.artifact + "\n" + f->subject;
        if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
        seen.push_back(key);
        out.push_back(std::move(*f));
        continue;
      }
    if (e.kind == LogEventKind::python_exception && e.problem == "own module missing") {
      if (auto f = from_missing_module(e)) out.push_back(std::move(*f));
      continue;
    }
    if (e.kind != LogEventKind::python_exception || e.problem != "load failure") continue;
    if (std::any_of(c.log_events.begin(), c.log_events.end(), [&](const LogEvent& other) {
          return other.kind == LogEventKind::load_error && other.where.artifact == e.where.artifact;
        }))
      continue;
    if (auto f = from_exception(c, e)) {
      const std::string key = e.where.artifact + "\n" + f->subject;
      if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
      seen.push_back(key);
      out.push_back(std::move(*f));
    }
  }
  return out;
}

}  // namespace aoti::checks
