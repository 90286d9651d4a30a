#include "parsers/source/clang_unit.hpp"

#include <clang-c/CXCompilationDatabase.h>

#include <algorithm>
#include <system_error>

#include "parsers/source/clang_cursor.hpp"
#include "parsers/source/torch_stubs.hpp"

namespace aoti::parsers::source {
namespace {

constexpr std::size_t k_max_diagnostics = 5;

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
  std::vector<std::string> args = {"-x", "c++", "-w", "-ferror-limit=50"};
  if (!has_std) args.push_back("-std=c++17");
  args.insert(args.end(), flags.begin(), flags.end());
  for (const std::string& d : options.include_dirs) args.push_back("-I" + d);
  // The bundled declarations come last, so real torch headers anywhere on the path win.
  if (!has_torch_headers(include_dirs)) args.push_back(std::string("-idirafter") + k_stub_root);

  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  std::vector<CXUnsavedFile> unsaved;
  unsaved.push_back({main_path.c_str(), text.data(), static_cast<unsigned long>(text.size())});
  for (const StubFile& stub : stub_files())
    unsaved.push_back({stub.path, stub.text.data(), static_cast<unsigned long>(stub.text.size())});

  std::unique_ptr<void, IndexDeleter> index(clang_createIndex(0, 0));
  CXTranslationUnit raw = nullptr;
  const CXErrorCode code = clang_parseTranslationUnit2(
      index.get(), main_path.c_str(), argv.data(), static_cast<int>(argv.size()), unsaved.data(),
      static_cast<unsigned>(unsaved.size()), CXTranslationUnit_KeepGoing, &raw);
  std::unique_ptr<CXTranslationUnitImpl, UnitDeleter> tu(raw);
  if (code != CXError_Success || !tu)
    return fail("libclang could not parse the file (error " + std::to_string(code) + ")");

  std::size_t errors = 0;
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
      diagnostics.push_back({display, where + ":" + std::to_string(line) + ":" +
                                          std::to_string(column) + ": " + severity_name(severity) +
                                          ": " + take(clang_getDiagnosticSpelling(d))});
    }
    clang_disposeDiagnostic(d);
  }
  if (errors > k_max_diagnostics)
    diagnostics.push_back({display, std::to_string(errors - k_max_diagnostics) +
                                        " more compile errors; analyzed what clang recovered"});
  else if (errors > 0)
    diagnostics.back().message += " (analyzed what clang recovered)";

  return ClangUnit(std::move(index), std::move(tu), main_path);
}

}  // namespace aoti::parsers::source
