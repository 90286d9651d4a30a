#include "parsers/source/clang_unit.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <system_error>

#include "parsers/source/clang_cursor.hpp"
#include "parsers/source/source_reader.hpp"
#include "parsers/source/torch_stubs.hpp"

namespace aoti::parsers::source {
namespace {

constexpr std::size_t k_max_diagnostics = 5;

// What the CUDA headers declare that a kernel and its launch need, for a CUDA unit parsed without
// them (-nocudainc): clang knows the attributes and CUDAKernelCallExpr itself, and looks up the
// launch configuration function by name (which one depends on the CUDA version it assumes: both
// are declared). A few device functions kernels commonly call are declared too, so their calls
// are not compile errors.
constexpr std::string_view k_cuda_preamble_path = "/aoti-analyze-stubs/aoti-cuda-preamble.h";
constexpr std::string_view k_cuda_preamble = R"(#pragma once
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ inline __attribute__((always_inline))
struct uint3 { unsigned int x, y, z; };
struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
};
typedef struct CUstream_st* cudaStream_t;
typedef int cudaError_t;
extern __device__ const uint3 threadIdx;
extern __device__ const uint3 blockIdx;
extern __device__ const dim3 blockDim;
extern __device__ const dim3 gridDim;
extern __device__ const int warpSize;
extern "C" int cudaConfigureCall(dim3 grid, dim3 block, unsigned long shared = 0,
                                 cudaStream_t stream = 0);
extern "C" unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, unsigned long shared = 0,
                                                cudaStream_t stream = 0);
extern "C" cudaError_t cudaGetLastError();
extern "C" const char* cudaGetErrorString(cudaError_t error);
__device__ void __syncthreads();
__device__ void __threadfence();
template <class T> __device__ T atomicAdd(T* address, T value);
template <class T> __device__ T atomicMax(T* address, T value);
template <class T> __device__ T atomicMin(T* address, T value);
template <class T> __device__ T atomicExch(T* address, T value);
template <class T> __device__ T atomicCAS(T* address, T compare, T value);
template <class T> __device__ T __ldg(const T* address);
template <class T> __device__ T __shfl_sync(unsigned mask, T value, int lane, int width = 32);
template <class T> __device__ T __shfl_down_sync(unsigned mask, T value, unsigned delta, int width = 32);
template <class T> __device__ T __shfl_xor_sync(unsigned mask, T value, int lane, int width = 32);
)";

bool has_torch_headers(const std::vector<std::string>& dirs) {
  std::error_code ec;
  return std::any_of(dirs.begin(), dirs.end(), [&](const std::string& d) {
    return std::filesystem::exists(std::filesystem::path(d) / "torch" / "library.h", ec);
  });
}

// The compile command's flags for `file`, without the compiler, the file, and output options.
std::vector<std::string> compile_flags(const std::filesystem::path& database,
                                       const std::filesystem::path& file,
                                       std::vector<std::string>& include_dirs) {
  std::vector<std::string> flags;
  const std::filesystem::path dir =
      std::filesystem::is_directory(database) ? database : database.parent_path();
  CXCompilationDatabase_Error error = CXCompilationDatabase_NoError;
  CXCompilationDatabase db = clang_CompilationDatabase_fromDirectory(dir.c_str(), &error);
  if (error != CXCompilationDatabase_NoError || !db) return flags;
  CXCompileCommands commands = clang_CompilationDatabase_getCompileCommands(db, file.c_str());
  if (commands && clang_CompileCommands_getSize(commands) > 0) {
    CXCompileCommand command = clang_CompileCommands_getCommand(commands, 0);
    const std::string working = take(clang_CompileCommand_getDirectory(command));
    if (!working.empty()) flags.push_back("-working-directory=" + working);
    const unsigned n = clang_CompileCommand_getNumArgs(command);
    for (unsigned i = 1; i < n; ++i) {
      std::string arg = take(clang_CompileCommand_getArg(command, i));
      // A command libclang inferred for a file the database lacks (a header) ends in `-- FILE`;
      // the input is ours to give, and the driver mode is not a compiler flag.
      if (arg == "--") break;
      if (arg.starts_with("--driver-mode=")) continue;
      if (arg == "-c" || arg == file.string() || arg == file.filename().string()) continue;
      if (arg == "-o" || arg == "-MF" || arg == "-MT" || arg == "-MQ") {
        ++i;
        continue;
      }
      if (arg.starts_with("-o") || arg == "-MD" || arg == "-MMD") continue;
      if (arg.starts_with("-I") || arg.starts_with("-isystem")) {
        std::string d = arg.starts_with("-I") ? arg.substr(2) : arg.substr(8);
        if (d.empty() && i + 1 < n) d = take(clang_CompileCommand_getArg(command, i + 1));
        const std::filesystem::path p(d);
        include_dirs.push_back((p.is_relative() ? std::filesystem::path(working) / p : p).string());
      }
      flags.push_back(std::move(arg));
    }
  }
  if (commands) clang_CompileCommands_dispose(commands);
  clang_CompilationDatabase_dispose(db);
  return flags;
}

// Where an empty header stands in for each one the file includes: searched last (-idirafter), so
// any real header on the path wins and only a header found nowhere is replaced.
constexpr std::string_view k_missing_root = "/aoti-analyze-missing";
constexpr std::size_t k_max_includes = 512;

// What a failed clang_parseTranslationUnit2 means, in the enum's own names.
std::string describe(CXErrorCode code) {
  switch (code) {
    case CXError_Crashed:
      return "it crashed on the file and recovered: CXError_Crashed";
    case CXError_InvalidArguments:
      return "CXError_InvalidArguments";
    case CXError_ASTReadError:
      return "CXError_ASTReadError";
    case CXError_Failure:
      return "CXError_Failure";
    default:
      return "error " + std::to_string(code);
  }
}

// A name a stand-in file can be made for: relative, every component a real name. libclang 19
// crashes in its crash-recovery context (and leaks the unit) when an in-memory file's path ends
// in '/' (`#include <ATen/ATen./>`, found by fuzz_cpp_source); "." and ".." would reach outside
// the stand-in roots.
bool is_relative_file_name(std::string_view name) {
  if (name.empty() || name.starts_with('/')) return false;
  for (std::size_t at = 0; at <= name.size();) {
    std::size_t slash = name.find('/', at);
    if (slash == std::string_view::npos) slash = name.size();
    const std::string_view component = name.substr(at, slash - at);
    if (component.empty() || component == "." || component == "..") return false;
    at = slash + 1;
  }
  return true;
}

// The header names of the file's #include lines, as written; names that are absolute, climb out
// of the path (`..`) or are not file names are left to fail.
std::vector<std::string> included_names(std::string_view text) {
  std::vector<std::string> names;
  std::size_t at = 0;
  while (at < text.size() && names.size() < k_max_includes) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    const std::size_t hash = line.find_first_not_of(" \t");
    if (hash == std::string_view::npos || line[hash] != '#') continue;
    line.remove_prefix(hash + 1);
    line.remove_prefix(std::min(line.find_first_not_of(" \t"), line.size()));
    if (!line.starts_with("include")) continue;
    line.remove_prefix(7);
    line.remove_prefix(std::min(line.find_first_not_of(" \t"), line.size()));
    if (line.empty() || (line[0] != '<' && line[0] != '"')) continue;
    const std::size_t close = line.find(line[0] == '<' ? '>' : '"', 1);
    if (close == std::string_view::npos || close == 1) continue;
    const std::string name(line.substr(1, close - 1));
    if (is_relative_file_name(name)) names.push_back(name);
  }
  return names;
}

bool is_torch_header(std::string_view name) {
  return name.starts_with("ATen/") || name.starts_with("c10/") || name.starts_with("torch/") ||
         name.starts_with("caffe2/");
}

// The headers the parse took from k_missing_root, i.e. found nowhere else.
std::vector<std::string> missing_headers(CXTranslationUnit tu) {
  std::vector<std::string> out;
  clang_getInclusions(
      tu,
      [](CXFile file, CXSourceLocation*, unsigned, CXClientData data) {
        const std::string name = take(clang_getFileName(file));
        if (name.starts_with(k_missing_root))
          static_cast<std::vector<std::string>*>(data)->push_back(
              name.substr(k_missing_root.size() + 1));
      },
      &out);
  return out;
}

// The bundled declarations (and the standard headers they include), precompiled once per process:
// parsing them is 0.3 s of every C++ file, a file alone a few milliseconds. The PCH goes to a
// private temporary file that is unlinked at once and read through /proc/self/fd, so nothing is
// left behind. An empty result (no temp dir, a failed parse or save) means: include the stub
// header as text instead.
class StubPch {
 public:
  static const std::string& path() {
    static const StubPch instance;
    return instance.m_path;
  }

 private:
  StubPch() {
    const char* tmp = std::getenv("TMPDIR");
    std::string dir = std::string(tmp && *tmp ? tmp : "/tmp") + "/aoti-analyze-pch-XXXXXX";
    if (!mkdtemp(dir.data())) return;
    const std::string file = dir + "/stubs.pch";
    const std::string header = std::string(k_stub_root) + "/aoti-pch.hpp";
    static constexpr std::string_view k_body = "#include <torch/extension.h>\n";
    std::vector<CXUnsavedFile> unsaved{
        {header.c_str(), k_body.data(), static_cast<unsigned long>(k_body.size())}};
    for (const StubFile& stub : stub_files())
      unsaved.push_back(
          {stub.path, stub.text.data(), static_cast<unsigned long>(stub.text.size())});
    const std::string stub_dir = std::string("-idirafter") + k_stub_root;
    // -fpch-instantiate-templates: the implicit instantiations the headers ask for are made once,
    // here, not again in every file that uses the PCH: that was most of a small file's parse
    // (200 one-line files: 9.0 s of CPU before, 1.7 s after, reports identical).
    const std::array<const char*, 6> argv{
        "-x", "c++-header", "-std=c++17", "-w", "-fpch-instantiate-templates", stub_dir.c_str()};
    std::unique_ptr<void, ClangUnit::IndexDeleter> index(clang_createIndex(0, 0));
    CXTranslationUnit raw = nullptr;
    const CXErrorCode code = clang_parseTranslationUnit2(
        index.get(), header.c_str(), argv.data(), static_cast<int>(argv.size()), unsaved.data(),
        static_cast<unsigned>(unsaved.size()), CXTranslationUnit_Incomplete, &raw);
    std::unique_ptr<CXTranslationUnitImpl, ClangUnit::UnitDeleter> tu(raw);
    const bool saved =
        code == CXError_Success && tu &&
        clang_saveTranslationUnit(tu.get(), file.c_str(), clang_defaultSaveOptions(tu.get())) ==
            CXSaveError_None;
    const int fd = saved ? open(file.c_str(), O_RDONLY | O_CLOEXEC) : -1;
    unlink(file.c_str());
    rmdir(dir.c_str());
    if (fd >= 0) m_path = "/proc/self/fd/" + std::to_string(fd);  // kept open for the process
  }

  std::string m_path;
};

// The functions defined in the main file whose bodies hold one of `lines` (compile errors there):
// what clang recovered of them may lack calls or whole statements, so a check's silence about
// them is weaker. Named as written, qualified by their class; a TORCH_LIBRARY block by its macro.
std::vector<std::string> functions_with_errors(CXTranslationUnit tu, const std::string& main_path,
                                               std::vector<unsigned> lines) {
  std::vector<std::string> out;
  if (lines.empty()) return out;
  std::sort(lines.begin(), lines.end());
  const CXFile main_file = clang_getFile(tu, main_path.c_str());
  const auto line_of = [](CXSourceLocation location, CXFile* file) {
    unsigned line = 0;
    clang_getExpansionLocation(location, file, &line, nullptr, nullptr);
    return line;
  };
  const auto visit = [&](auto& self, CXCursor parent, int depth) -> void {
    if (depth > k_max_ast_depth) return;
    for (CXCursor c : children(parent)) {
      // Only what the main file declares: the headers' declarations (most of a unit) are not
      // walked.
      CXFile where = nullptr;
      clang_getExpansionLocation(clang_getCursorLocation(c), &where, nullptr, nullptr, nullptr);
      if (!clang_File_isEqual(where, main_file)) continue;
      const CXCursorKind kind = clang_getCursorKind(c);
      if (kind == CXCursor_Namespace || kind == CXCursor_LinkageSpec ||
          kind == CXCursor_ClassDecl || kind == CXCursor_StructDecl ||
          kind == CXCursor_ClassTemplate) {
        self(self, c, depth + 1);
        continue;
      }
      const bool function = kind == CXCursor_FunctionDecl || kind == CXCursor_CXXMethod ||
                            kind == CXCursor_FunctionTemplate || kind == CXCursor_Constructor ||
                            kind == CXCursor_Destructor;
      if (!function || !clang_isCursorDefinition(c)) continue;
      const CXSourceRange extent = clang_getCursorExtent(c);
      CXFile file = nullptr;
      const unsigned first = line_of(clang_getRangeStart(extent), &file);
      if (!clang_File_isEqual(file, main_file)) continue;
      const unsigned last = line_of(clang_getRangeEnd(extent), &file);
      const auto error = std::lower_bound(lines.begin(), lines.end(), first);
      if (error == lines.end() || *error > last) continue;
      std::string name = spelling(c);
      // TORCH_LIBRARY(ns, m) expands to a function TORCH_LIBRARY_init_ns.
      for (const std::string_view block :
           {"TORCH_LIBRARY_IMPL_init_", "TORCH_LIBRARY_init_", "TORCH_LIBRARY_FRAGMENT_init_"})
        if (name.starts_with(block))
          name = std::string(block.substr(0, block.size() - 6)) + " block (" + name + ")";
      const std::string parent_class = parent_name(c);
      const CXCursorKind parent_kind = clang_getCursorKind(clang_getCursorSemanticParent(c));
      if (!parent_class.empty() &&
          (parent_kind == CXCursor_ClassDecl || parent_kind == CXCursor_StructDecl ||
           parent_kind == CXCursor_ClassTemplate))
        name = parent_class + "::" + name;
      if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
    }
  };
  visit(visit, clang_getTranslationUnitCursor(tu), 0);
  return out;
}

std::string severity_name(CXDiagnosticSeverity s) {
  return s == CXDiagnostic_Fatal ? "fatal error" : "error";
}

}  // namespace

Parsed<ClangUnit> ClangUnit::parse(const std::filesystem::path& path, std::string_view text,
                                   const std::string& display, const SourceOptions& options,
                                   std::vector<model::Diagnostic>& diagnostics) {
  std::error_code ec;
  std::filesystem::path absolute = std::filesystem::absolute(path, ec);
  if (ec) absolute = path;
  const std::string main_path = absolute.string();

  std::vector<std::string> include_dirs = options.include_dirs;
  std::vector<std::string> flags;
  if (options.compile_commands)
    flags = compile_flags(*options.compile_commands, absolute, include_dirs);
  const bool has_std = std::any_of(flags.begin(), flags.end(),
                                   [](const std::string& f) { return f.starts_with("-std="); });
  // No typo correction: an unknown macro such as DISPATCH_TO_META(...) must stay unresolved, not
  // be bound to whatever declared name is spelled closest.
  const bool cuda = is_cuda_source(path);
  std::vector<std::string> args = {"-x", cuda ? "cuda" : "c++", "-w", "-ferror-limit=50",
                                   "-fno-spell-checking"};
  // The host side of a CUDA file, without a CUDA installation: no CUDA headers, no libdevice.
  // What those headers would declare (the execution-space attributes, the built-in variables, the
  // launch configuration call) comes from k_cuda_preamble.
  if (cuda)
    args.insert(args.end(), {"--cuda-host-only", "-nocudainc", "-nocudalib", "-include",
                             std::string(k_cuda_preamble_path)});
  if (!has_std) args.push_back("-std=c++17");
  args.insert(args.end(), flags.begin(), flags.end());
  for (const std::string& d : options.include_dirs) args.push_back("-I" + d);
  // The bundled declarations come last, so real torch headers anywhere on the path win.
  // They are also included first: real extensions reach torch through their own headers
  // (`#include "fbgemm_gpu/sparse_ops.h"`), which are often not on the analyzing machine.
  const bool stubs = !has_torch_headers(include_dirs);
  if (stubs) {
    args.push_back(std::string("-idirafter") + k_stub_root);
    // The precompiled stubs need the language options they were built with: not with a
    // compile_commands.json's flags. -fno-validate-pch: the stubs are in-memory files, which
    // clang would otherwise compare with a disk that does not have them.
    const std::string no_pch;
    // Not for CUDA: the PCH holds C++'s language options, which a CUDA unit cannot load.
    const std::string& pch =
        options.precompiled_stubs && flags.empty() && !cuda ? StubPch::path() : no_pch;
    if (!pch.empty()) {
      args.insert(args.end(), {"-include-pch", pch, "-Xclang", "-fno-validate-pch"});
      // Only here: the stubs include standard headers themselves, already compiled in the PCH.
      if (!options.system_headers) args.push_back("-nostdinc");
    } else {
      args.push_back("-include");
      args.push_back(std::string(k_stub_root) + "/torch/extension.h");
    }
  }
  args.push_back("-idirafter" + std::string(k_missing_root));

  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  std::vector<CXUnsavedFile> unsaved;
  unsaved.push_back({main_path.c_str(), text.data(), static_cast<unsigned long>(text.size())});
  for (const StubFile& stub : stub_files())
    unsaved.push_back({stub.path, stub.text.data(), static_cast<unsigned long>(stub.text.size())});
  if (cuda)
    unsaved.push_back({k_cuda_preamble_path.data(), k_cuda_preamble.data(),
                       static_cast<unsigned long>(k_cuda_preamble.size())});
  // Every included header has a stand-in: a torch header not bundled is the torch stub (with
  // stubs in use), any other an empty file. Both count only where no real header is found.
  static constexpr std::string_view k_torch_forward = "#include <torch/extension.h>\n";
  std::vector<std::string> stand_in_paths;
  for (std::string& name : included_names(text)) {
    const bool torch = stubs && is_torch_header(name);
    stand_in_paths.push_back(std::string(torch ? std::string_view(k_stub_root) : k_missing_root) +
                             "/" + name);
  }
  for (const std::string& stand_in : stand_in_paths) {
    const bool torch = stand_in.starts_with(k_stub_root);
    if (torch && std::any_of(stub_files().begin(), stub_files().end(),
                             [&](const StubFile& f) { return stand_in == f.path; }))
      continue;
    const std::string_view body = torch ? k_torch_forward : std::string_view();
    unsaved.push_back({stand_in.c_str(), body.data(), static_cast<unsigned long>(body.size())});
  }

  // excludeDeclarationsFromPCH: visiting the unit's children would otherwise deserialize and
  // visit every declaration of the precompiled stubs and the standard headers they include, most
  // of a small file's parse time; what the walks want is the file's own declarations.
  std::unique_ptr<void, IndexDeleter> index(clang_createIndex(1, 0));
  CXTranslationUnit raw = nullptr;
  const CXErrorCode code = clang_parseTranslationUnit2(
      index.get(), main_path.c_str(), argv.data(), static_cast<int>(argv.size()), unsaved.data(),
      static_cast<unsigned>(unsaved.size()), CXTranslationUnit_KeepGoing, &raw);
  std::unique_ptr<CXTranslationUnitImpl, UnitDeleter> tu(raw);
  if (code != CXError_Success || !tu)
    return fail("libclang could not parse the file (" + describe(code) + ")");

  std::size_t errors = 0;
  std::vector<unsigned> main_error_lines;  // of the first k_max_diagnostics errors
  const unsigned count = clang_getNumDiagnostics(tu.get());
  for (unsigned i = 0; i < count; ++i) {
    CXDiagnostic d = clang_getDiagnostic(tu.get(), i);
    const CXDiagnosticSeverity severity = clang_getDiagnosticSeverity(d);
    if (severity >= CXDiagnostic_Error && ++errors <= k_max_diagnostics) {
      CXFile file = nullptr;
      unsigned line = 0, column = 0;
      clang_getExpansionLocation(clang_getDiagnosticLocation(d), &file, &line, &column, nullptr);
      const std::string where = file && take(clang_getFileName(file)) != main_path
                                    ? take(clang_getFileName(file))
                                    : display;
      if (where == display) main_error_lines.push_back(line);
      diagnostics.push_back(
          {display,
           where + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " +
               severity_name(severity) + ": " + take(clang_getDiagnosticSpelling(d)),
           model::DiagnosticSource::artifact, model::SourceProblem::compile_error});
    }
    clang_disposeDiagnostic(d);
  }
  if (errors > k_max_diagnostics)
    diagnostics.push_back({display,
                           std::to_string(errors - k_max_diagnostics) +
                               " more compile errors; analyzed what clang recovered",
                           model::DiagnosticSource::artifact, model::SourceProblem::compile_error,
                           static_cast<int>(errors - k_max_diagnostics)});
  else if (errors > 0)
    diagnostics.back().message += " (analyzed what clang recovered)";
  if (const std::vector<std::string> functions =
          functions_with_errors(tu.get(), main_path, main_error_lines);
      !functions.empty()) {
    std::string list;
    for (const std::string& f : functions) list += (list.empty() ? "" : ", ") + f;
    diagnostics.push_back({display,
                           display + ": compile errors inside " + std::to_string(functions.size()) +
                               " function(s), read only as far as clang recovered them: " + list,
                           model::DiagnosticSource::artifact,
                           model::SourceProblem::functions_with_errors,
                           static_cast<int>(functions.size()), functions});
  }
  if (const std::vector<std::string> missing = missing_headers(tu.get()); !missing.empty()) {
    std::string list;
    for (const std::string& m : missing) list += (list.empty() ? "" : ", ") + m;
    diagnostics.push_back({display,
                           display + ": " + std::to_string(missing.size()) +
                               " included header(s) not found, analyzed without them: " + list,
                           model::DiagnosticSource::artifact, model::SourceProblem::missing_headers,
                           static_cast<int>(missing.size()), missing});
  }

  return ClangUnit(std::move(index), std::move(tu), main_path);
}

}  // namespace aoti::parsers::source
