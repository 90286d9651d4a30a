// The C++ front end: libclang over the text with the bundled torch declarations, then
// registrations and patterns. libclang itself is not instrumented (a Debian library); what is
// fuzzed is our walk over whatever AST it makes of hostile text.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "parsers/source/cpp_frontend.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Precompiled declarations and no system headers (each becomes an empty stand-in): each input
  // then costs its own text only, not the seconds of a standard library it includes.
  static const aoti::parsers::source::SourceOptions options = [] {
    aoti::parsers::source::SourceOptions o;
    o.precompiled_stubs = true;
    o.system_headers = false;
    o.skim_unregistered = false;  // every input reaches libclang, registering or not
    return o;
  }();
  (void)aoti::parsers::source::read_cpp("ops.cpp", {reinterpret_cast<const char*>(data), size},
                                        "ops.cpp", options);
  return 0;
}
