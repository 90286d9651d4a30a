// A translation unit of a C++ source, parsed by libclang against the bundled torch declarations
// (or the real headers given, with the flags of a compile_commands.json). Internal to
// parsers/source.
#pragma once

#include "parsers/source/libclang.hpp"

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model/case.hpp"
#include "parsers/parse_error.hpp"
#include "parsers/source/source_reader.hpp"

namespace aoti::parsers::source {

class ClangUnit {
 public:
  // Compile errors do not fail the parse: clang recovers what it can, and the first errors go to
  // `diagnostics` (they say what may be missing). Fails when libclang cannot parse at all.
  static Parsed<ClangUnit> parse(const std::filesystem::path& path, std::string_view text,
                                 const std::string& display, const SourceOptions& options,
                                 std::vector<model::Diagnostic>& diagnostics);

  CXTranslationUnit get() const { return m_unit.get(); }
  const std::string& main_path() const {
    return m_main_path;
  }  // the file as clang knows it (absolute)

  // Owners of libclang handles, also for units that are not a ClangUnit (the precompiled stubs).
  struct IndexDeleter {
    void operator()(void* index) const { clang_disposeIndex(index); }
  };
  struct UnitDeleter {
    void operator()(CXTranslationUnitImpl* tu) const { clang_disposeTranslationUnit(tu); }
  };

 private:
  ClangUnit(std::unique_ptr<void, IndexDeleter> index,
            std::unique_ptr<CXTranslationUnitImpl, UnitDeleter> unit, std::string main_path)
      : m_index(std::move(index)), m_unit(std::move(unit)), m_main_path(std::move(main_path)) {}

  // Declared in this order so that the unit is disposed before its index.
  std::unique_ptr<void, IndexDeleter> m_index;
  std::unique_ptr<CXTranslationUnitImpl, UnitDeleter> m_unit;
  std::string m_main_path;
};

}  // namespace aoti::parsers::source
