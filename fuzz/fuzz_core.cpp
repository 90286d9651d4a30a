// The CPU core reader: ELF core headers, notes (NT_PRSTATUS, NT_FILE, NT_SIGINFO, ...), the
// segments it reads, libdwfl's module report and unwinding; plain, xz or zstd.
#include <cstddef>
#include <cstdint>

#include "fuzz/input_file.hpp"
#include "parsers/coredump/core_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace coredump = aoti::parsers::coredump;
  coredump::looks_like_core({reinterpret_cast<const char*>(data), size < 4096 ? size : 4096});
  (void)coredump::read_core(aoti::fuzz::input_file().write(data, size), "core", {});
  return 0;
}
