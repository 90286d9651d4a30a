#include "parsers/coredump/link_map.hpp"

#include <array>
#include <cstring>
#include <set>

#include "parsers/elf/types.hpp"

namespace aoti::parsers::coredump {
namespace {

constexpr std::uint64_t k_phdr_size = 56;  // Elf64_Phdr
constexpr std::uint64_t k_max_phdrs = 4096;
constexpr std::uint64_t k_max_dynamic = 4096;   // entries of one dynamic section read
constexpr std::size_t k_max_entries = 1 << 16;  // link map entries followed, all lists together
constexpr std::size_t k_max_name = 4096;        // PATH_MAX: open() refuses longer names

struct Phdr {
  std::uint32_t type = 0;
  std::uint64_t vaddr = 0;
  std::uint64_t filesz = 0;
};

std::optional<Phdr> read_phdr(const CoreImage& image, std::uint64_t at) {
  std::array<std::byte, k_phdr_size> raw{};
  if (image.read(at, raw) != raw.size()) return std::nullopt;
  Phdr phdr;
  std::memcpy(&phdr.type, raw.data(), 4);
  std::memcpy(&phdr.vaddr, raw.data() + 16, 8);
  std::memcpy(&phdr.filesz, raw.data() + 32, 8);
  return phdr;
}

// The first DT_DEBUG value of the dynamic section at `at` (0 when none): where r_debug is.
std::uint64_t debug_pointer(const CoreImage& image, std::uint64_t at, std::uint64_t size) {
  for (std::uint64_t i = 0; i < std::min(size / 16, k_max_dynamic); ++i) {
    const auto tag = image.read_u64(at + i * 16);
    if (!tag || static_cast<std::int64_t>(*tag) == elf::k_dt_null) break;
    if (static_cast<std::int64_t>(*tag) == elf::k_dt_debug)
      return image.read_u64(at + i * 16 + 8).value_or(0);
  }
  return 0;
}

// libdwfl's main way: the executable's program headers where AT_PHDR says they are in memory.
std::uint64_t r_debug_from_auxv(const CoreImage& image) {
  const auto phdr = image.notes().auxv_value(elf::k_at_phdr);
  const std::uint64_t count =
      std::min(image.notes().auxv_value(elf::k_at_phnum).value_or(0), k_max_phdrs);
  if (!phdr || image.notes().auxv_value(elf::k_at_phent).value_or(k_phdr_size) != k_phdr_size)
    return 0;
  std::optional<std::uint64_t> bias;
  std::optional<Phdr> dynamic;
  for (std::uint64_t i = 0; i < count; ++i) {
    const auto entry = read_phdr(image, *phdr + i * k_phdr_size);
    if (!entry) break;
    if (entry->type == elf::k_pt_phdr && !bias) bias = *phdr - entry->vaddr;
    if (entry->type == elf::k_pt_dynamic) dynamic = entry;
  }
  if (!dynamic) return 0;
  return debug_pointer(image, dynamic->vaddr + bias.value_or(0), dynamic->filesz);
}

// The fallback: a module's own ELF header and program headers, as dumped at its start.
std::uint64_t r_debug_from_module(const CoreImage& image, std::uint64_t start) {
  std::array<std::byte, 64> header{};
  if (image.read(start, header) != header.size() || std::memcmp(header.data(),
                                                                "\x7f"
                                                                "ELF",
                                                                4) != 0)
    return 0;
  std::uint64_t phoff = 0;
  std::uint16_t phnum = 0;
  std::memcpy(&phoff, header.data() + 0x20, 8);
  std::memcpy(&phnum, header.data() + 0x38, 2);
  std::optional<std::uint64_t> first_load;
  std::optional<Phdr> dynamic;
  for (std::uint64_t i = 0; i < std::min<std::uint64_t>(phnum, k_max_phdrs); ++i) {
    const auto entry = read_phdr(image, start + phoff + i * k_phdr_size);
    if (!entry) break;
    if (entry->type == elf::k_pt_load && !first_load) first_load = entry->vaddr;
    if (entry->type == elf::k_pt_dynamic) dynamic = entry;
  }
  if (!dynamic || !first_load) return 0;
  const std::uint64_t bias = start - (*first_load & ~std::uint64_t{0xfff});
  return debug_pointer(image, dynamic->vaddr + bias, dynamic->filesz);
}

}  // namespace

std::vector<std::string> link_map_names(const CoreImage& image,
                                        const std::vector<model::MappedModule>& modules) {
  std::set<std::uint64_t> lists;
  if (const std::uint64_t r_debug = r_debug_from_auxv(image)) lists.insert(r_debug);
  for (const model::MappedModule& module : modules)
    if (module.file_offset == 0)
      if (const std::uint64_t r_debug = r_debug_from_module(image, module.start))
        lists.insert(r_debug);
  std::vector<std::string> names;
  std::set<std::uint64_t> seen;
  for (const std::uint64_t r_debug : lists) {
    // struct r_debug { int r_version; struct link_map* r_map; ... }: r_map at 8.
    std::uint64_t next = image.read_u64(r_debug + 8).value_or(0);
    // struct link_map { l_addr, l_name, l_ld, l_next, l_prev }.
    while (next != 0 && seen.size() < k_max_entries && seen.insert(next).second) {
      const auto name = image.read_u64(next + 8);
      const auto ld = image.read_u64(next + 16);
      const auto following = image.read_u64(next + 24);
      if (!name || !ld || !following) break;
      next = *following;
      if (*ld == 0) continue;
      if (auto text = image.read_string(*name, k_max_name); text && !text->empty())
        names.push_back(std::move(*text));
    }
  }
  return names;
}

}  // namespace aoti::parsers::coredump
