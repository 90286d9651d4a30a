// What the model shared object tells, read as ELF from inside the package or as a bare .so.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "model/location.hpp"

namespace aoti::model {

struct ElfFacts {
  Location where;
  std::string machine;              // "x86_64"
  std::vector<std::string> needed;  // DT_NEEDED
  std::string soname;
  std::string build_id;               // hex
  std::vector<std::string> comments;  // .comment strings: "GCC: (Ubuntu 13.3.0-...) 13.3.0"
  std::size_t defined_dynamic_symbols = 0;
  // Strongly defined dynamic symbols that belong to the C++ runtime itself (std::locale,
  // std::ios_base, __cxa_*, ...): present only when libstdc++ was linked in statically.
  std::vector<std::string> cxx_runtime_symbols;  // mangled names, a sample (at most 32)
  std::size_t cxx_runtime_symbol_count = 0;
  // Defined dynamic symbols of the AOTI model C API (AOTInductorModelContainerCreateWithDevice,
  // AOTInductorModelContainerRun, ...), sorted: a model .so exports them, a custom-op library not.
  std::vector<std::string> aoti_exports;
};

}  // namespace aoti::model
