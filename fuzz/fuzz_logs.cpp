// The log scanner on stderr and log text: every recognizer.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "parsers/logs/log_scanner.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  (void)aoti::parsers::logs::scan_log_text({reinterpret_cast<const char*>(data), size},
                                           "stderr.txt");
  return 0;
}
