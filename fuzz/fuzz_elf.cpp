// The ELF reader on a model .so: sections, dynamic symbols, notes, build id.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "parsers/elf/elf_reader.hpp"
#include "parsers/random_access.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto source = aoti::parsers::open_memory({reinterpret_cast<const char*>(data), size});
  auto facts = aoti::parsers::elf::read_shared_object(*source, {"model.so", "", 0});
  if (facts) aoti::parsers::elf::is_aoti_model(*facts);
  return 0;
}
