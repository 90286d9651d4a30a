// read_cpp in a build configured with -DENABLE_LIBCLANG=OFF: C++ sources are reported as unread
// (a diagnostic in the report), Python sources are still analyzed.
#include "parsers/source/cpp_frontend.hpp"

namespace aoti::parsers::source {

Parsed<SourceRead> read_cpp(const std::filesystem::path&, std::string_view, const std::string&,
                            const SourceOptions&) {
  return fail("C++ sources need libclang: this aoti-analyze was built with ENABLE_LIBCLANG=OFF");
}

}  // namespace aoti::parsers::source
