// Loading is by the library's soname first (the system's search path, as the dynamic linker would
// resolve a link), then by the path CMake found at build time. The library is a system package
// (libclang1-19), never an input.
#define AOTI_LIBCLANG_LOADER  // the table's members by their own names, not the calling macros
#include "parsers/source/libclang.hpp"

#include <dlfcn.h>

namespace aoti::parsers::source {
namespace {

struct Loaded {
  LibclangApi api;
  std::string error;  // empty when every function was found
};

Loaded load() {
  Loaded out;
  void* handle = nullptr;
  std::string tried;
  for (const char* name : {AOTI_LIBCLANG_SONAME, AOTI_LIBCLANG_PATH}) {
    handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (handle) break;
    const char* error = dlerror();
    tried += std::string(tried.empty() ? "" : "; ") + (error ? error : name);
  }
  if (!handle) {
    out.error = "libclang could not be loaded (" + tried + "); install libclang1-19";
    return out;
  }
  // Never closed: the functions are used until the process ends.
#define AOTI_LIBCLANG_LOOKUP(name)                                               \
  out.api.name = reinterpret_cast<decltype(out.api.name)>(dlsym(handle, #name)); \
  if (!out.api.name && out.error.empty()) out.error = "libclang lacks " #name;
  AOTI_LIBCLANG_FUNCTIONS(AOTI_LIBCLANG_LOOKUP)
#undef AOTI_LIBCLANG_LOOKUP
  return out;
}

const Loaded& loaded() {
  static const Loaded instance = load();
  return instance;
}

}  // namespace

bool libclang_ready(std::string& why_not) {
  why_not = loaded().error;
  return why_not.empty();
}

const LibclangApi& libclang() { return loaded().api; }

}  // namespace aoti::parsers::source
