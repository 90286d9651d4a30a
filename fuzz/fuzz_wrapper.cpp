// The wrapper parser on a generated <hash>.wrapper.cpp.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "parsers/wrapper/wrapper_parser.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  aoti::parsers::wrapper::looks_like_wrapper(text.substr(0, 4096));
  (void)aoti::parsers::wrapper::parse_wrapper(text, {"model.pt2", "model/x.wrapper.cpp", 0});
  return 0;
}
