// The TORCH_TRACE reader: record headers, payloads and their MD5, the facts built from them.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/input_file.hpp"
#include "parsers/trace/trace_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  aoti::parsers::trace::looks_like_trace(text.substr(0, 4096));
  (void)aoti::parsers::trace::read_trace(aoti::fuzz::input_file().write(data, size), "trace.log");
  return 0;
}
