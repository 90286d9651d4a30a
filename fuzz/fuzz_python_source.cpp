// The Python front end: tokenizer, statements, expressions, registrations and patterns.
#include <cstddef>
#include <cstdint>

#include "parsers/source/python_frontend.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  (void)aoti::parsers::source::read_python({reinterpret_cast<const char*>(data), size}, "ops.py");
  return 0;
}
