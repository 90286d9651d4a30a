// The C++ front end. libclang parses the file against the bundled torch declarations (or real
// headers when given) and recovers what it can from code that does not compile (clang_unit);
// the registrations are read (cpp_registrations), then what the traced kernels (and the
// same-file functions they call) do with sizes (cpp_patterns).
#include "parsers/source/cpp_frontend.hpp"

#include <exception>

#include "parsers/source/clang_cursor.hpp"
#include "parsers/source/clang_unit.hpp"
#include "parsers/source/cpp_patterns.hpp"
#include "parsers/source/cpp_registrations.hpp"
#include "parsers/source/cuda_kernels.hpp"
#include "parsers/source/libclang.hpp"
#include "parsers/source/source_text.hpp"

namespace aoti::parsers::source {

Parsed<SourceRead> read_cpp(const std::filesystem::path& path, std::string_view text,
                            const std::string& display, const SourceOptions& options) {
  SourceRead out;
  out.facts.artifact = display;
  out.facts.language = is_cuda_source(path) ? "cuda" : "c++";
  if (options.skim_unregistered && !may_register(text, options.registration_macros) &&
      !(out.facts.language == "cuda" && options.cuda_kernels &&
        text.find("__global__") != std::string_view::npos)) {
    out.skimmed = true;
    return out;
  }
  if (std::string why_not; !libclang_ready(why_not)) return fail("C++ sources: " + why_not);
  try {
    auto unit = ClangUnit::parse(path, text, display, options, out.diagnostics);
    if (!unit) return tl::unexpected(std::move(unit.error()));
    const MainFile file(unit->get(), unit->main_path(), text);
    const CppRegistrations registrations =
        collect_cpp_registrations(unit->get(), file, out.facts.ops);
    for (const UnresolvedRegistration& r : registrations.unresolved)
      out.diagnostics.push_back(
          {display, display + ":" + std::to_string(r.line) + ": " + r.macro + "(\"" + r.op +
                        "\", ...) registers a kernel through a macro whose definition is not among "
                        "the inputs and whose name says no dispatch key: that kernel is not "
                        "analyzed (give its header with the sources, or a compile_commands.json)"});
    find_cpp_patterns(registrations, file, display, out.facts);
    if (out.facts.language == "cuda")
      out.facts.cuda_kernels = collect_cuda_kernels(unit->get(), file);
  } catch (const std::exception& e) {
    // Out of memory on a hostile file (rethrown past libclang's frames by children()): this file
    // fails, the rest of the case is still analyzed.
    return fail(std::string("the C++ analysis stopped: ") + e.what());
  }
  sort_by_place(out.facts.violations);
  return out;
}

}  // namespace aoti::parsers::source
