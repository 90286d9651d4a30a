// The C++ front end: libclang over the text with the bundled torch declarations, then
// registrations and patterns. libclang itself is not instrumented (a Debian library); what is
// fuzzed is our walk over whatever AST it makes of hostile text.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "parsers/source/cpp_frontend.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Precompiled declarations: each input then costs its own text only.
  static const aoti::parsers::source::SourceOptions options{{}, {}, true};
  (void)aoti::parsers::source::read_cpp("ops.cpp", {reinterpret_cast<const char*>(data), size},
                                        "ops.cpp", options);
  return 0;
}
