// The zip directory reader: the central directory, then every entry read (capped) or opened as a
// stored range, as the package reader does.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "fuzz/input_file.hpp"
#include "parsers/zip/zip_archive.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using aoti::parsers::zip::ZipArchive;
  auto archive = ZipArchive::open(aoti::fuzz::input_file().write(data, size));
  if (!archive) return 0;
  for (const auto& entry : archive->entries()) {
    archive->find(entry.name);
    (void)archive->read(entry, 1 << 16);
    if (auto stored = archive->open_stored(entry); stored && *stored) {
      std::byte head[64];
      auto count = std::min<std::uint64_t>((*stored)->size(), sizeof head);
      (*stored)->read(0, std::span(head, count));
    }
  }
  return 0;
}
