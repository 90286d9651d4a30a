// The .pt2 package reader: archive_format, the model folders, their JSON and .so entries.
#include <cstddef>
#include <cstdint>

#include "fuzz/input_file.hpp"
#include "parsers/pt2/pt2_package.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto& path = aoti::fuzz::input_file().write(data, size);
  aoti::parsers::pt2::looks_like_pt2(path);
  (void)aoti::parsers::pt2::read_package(path, "model.pt2");
  return 0;
}
