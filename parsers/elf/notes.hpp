// The one ELF note walker: the model .so's build-id (elf_reader), the build-ids of modules found
// in a core's memory (core_reader) and a core's own notes (CoreImage) all go through it.
#pragma once

#include <cstdint>
#include <string_view>

#include "util/byte_reader.hpp"

namespace aoti::parsers::elf {

struct Note {
  std::string_view owner;  // n_namesz bytes as stored, the terminating NUL included
  std::uint32_t type = 0;
  util::ByteView desc;

  // "GNU" matches exactly the four bytes "GNU\0", as readelf and libelf compare owners.
  bool owned_by(std::string_view name) const {
    return owner.size() == name.size() + 1 && owner.starts_with(name) && owner.back() == '\0';
  }
};

// Calls `fn(note)` for each note of one note area (a PT_NOTE segment or SHT_NOTE section) until
// `fn` returns false, with the layout rules of elfutils' gelf_getnote: notes are 8-byte aligned
// only in an area aligned to 8, else to 4, and a note counts only when its name and its padded
// descriptor lie inside the area. Returns the offset after the last note visited, which is
// bytes.size() when the walk reached the end: less means the area is cut inside a note.
template <class Fn>
std::uint64_t for_each_note(const util::ByteView& bytes, std::uint64_t area_align, Fn&& fn) {
  constexpr std::uint64_t k_header_size = 12;  // n_namesz, n_descsz, n_type
  const std::uint64_t alignment = area_align == 8 ? 8 : 4;
  const auto align_up = [&](std::uint64_t value) {
    return (value + alignment - 1) / alignment * alignment;
  };
  std::uint64_t at = 0;
  while (bytes.has(at, k_header_size)) {
    const std::uint64_t name_size = bytes.u32(at);
    const std::uint64_t desc_size = bytes.u32(at + 4);
    const std::uint64_t name_at = at + k_header_size;
    const std::uint64_t desc_at = align_up(name_at + name_size);
    const std::uint64_t next = desc_at + align_up(desc_size);
    if (!bytes.has(name_at, name_size) || !bytes.has(desc_at, next - desc_at)) break;
    const Note note{bytes.text(name_at, name_size), bytes.u32(at + 8),
                    bytes.sub(desc_at, desc_size)};
    at = next;
    if (!fn(note)) break;
  }
  return at;
}

}  // namespace aoti::parsers::elf
