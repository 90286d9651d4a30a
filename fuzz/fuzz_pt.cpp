// The torch.save reader: the zip, the pickle read as data, the storage walked by size and stride.
// Limits are small so that a forged size costs the fuzzer no more than a real one would.
#include <cstddef>
#include <cstdint>

#include "fuzz/input_file.hpp"
#include "parsers/pt/tensor_dump.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto& path = aoti::fuzz::input_file().write(data, size);
  aoti::parsers::pt::DumpLimits limits;
  limits.max_deflated_storage = 1 << 20;
  limits.stats.max_elements = 1 << 20;
  limits.stats.chunk_bytes = 4096;
  limits.stats.max_overlapping_span = 1 << 20;
  aoti::parsers::pt::looks_like_tensor_dump(path);
  (void)aoti::parsers::pt::read_tensor_dump(path, limits);
  return 0;
}
