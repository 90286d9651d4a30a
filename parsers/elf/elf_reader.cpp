#include "parsers/elf/elf_reader.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "parsers/elf/notes.hpp"
#include "parsers/elf/types.hpp"
#include "util/byte_reader.hpp"
#include "util/hex.hpp"

namespace aoti::parsers::elf {
namespace {

constexpr std::uint64_t k_max_headers = 1 << 16;
constexpr std::uint64_t k_max_table = 64ull << 20;  // .dynsym, .dynstr, .shstrtab
constexpr std::uint64_t k_max_small = 1ull << 20;   // .dynamic, notes, .comment
constexpr std::size_t k_max_sample = 32;
// The model container C API (torch/csrc/inductor/aoti_runtime/interface.h); about 40 functions.
constexpr std::string_view k_aoti_api_prefix = "AOTInductorModelContainer";
constexpr std::size_t k_max_aoti_exports = 256;

using util::ByteView;
using util::ReadError;

// The bytes of one table of the file, after checking its claimed place and size. A failed
// read of a range that exists is an I/O failure, and says so.
std::vector<std::byte> read_range(const RandomAccess& source, std::uint64_t offset,
                                  std::uint64_t size, std::uint64_t limit, std::string_view what) {
  if (size > limit)
    throw ReadError(std::string(what) + " is " + std::to_string(size) + " bytes, more than the " +
                    std::to_string(limit) + " limit");
  if (offset > source.size() || size > source.size() - offset)
    throw ReadError("truncated: " + std::string(what) + " ends past the end of the file");
  std::vector<std::byte> bytes(static_cast<std::size_t>(size));
  try {
    source.read(offset, bytes);
  } catch (const ReadError& error) {
    throw ReadError(std::string("cannot read the ELF file: ") + error.what());
  }
  return bytes;
}

std::string machine_name(std::uint16_t machine) {
  switch (machine) {
    case 3:
      return "i386";
    case 20:
      return "ppc";
    case 21:
      return "ppc64";
    case 22:
      return "s390";
    case 40:
      return "arm";
    case 62:
      return "x86_64";
    case 183:
      return "aarch64";
    case 243:
      return "riscv";
    default:
      return "machine " + std::to_string(machine);
  }
}

// A strong (STB_GLOBAL) definition in namespace std or the C++ ABI can only come from the
// runtime's own compiled objects: code a model instantiates from the headers (templates, inline
// functions) is emitted weak or STB_GNU_UNIQUE. So these names in the dynamic symbol table mean
// that libstdc++ (or libsupc++) was linked into the .so. The order ranks the sample: the most
// telling names first, transactional-memory clones last.
constexpr std::array<std::string_view, 14> k_runtime_prefixes = {"__cxa_",
                                                                 "__gxx_personality_",
                                                                 "_ZSt",
                                                                 "_ZNSt",
                                                                 "_ZNKSt",
                                                                 "_ZTVSt",
                                                                 "_ZTISt",
                                                                 "_ZTSSt",
                                                                 "_ZTVN10__cxxabiv1",
                                                                 "_ZTIN10__cxxabiv1",
                                                                 "_ZN10__cxxabiv1",
                                                                 "_ZN9__gnu_cxx",
                                                                 "_ZGTtNSt",
                                                                 "_ZGTtNKSt"};

std::optional<std::size_t> cxx_runtime_rank(std::string_view name) {
  for (std::size_t i = 0; i < k_runtime_prefixes.size(); ++i)
    if (name.starts_with(k_runtime_prefixes[i])) return i;
  return std::nullopt;
}

// The GNU build-id from one note area; a note cut by the end of the area is not read.
std::string find_build_id(const ByteView& notes, std::uint64_t area_align) {
  std::string build_id;
  for_each_note(notes, area_align, [&](const Note& note) {
    if (note.type != k_nt_gnu_build_id || !note.owned_by("GNU")) return true;
    build_id = util::hex_bytes(note.desc.bytes());
    return false;
  });
  return build_id;
}

class Reader {
 public:
  Reader(const RandomAccess& source, const model::Location& where)
      : m_source(source), m_where(where) {}

  model::ElfFacts read() {
    model::ElfFacts facts;
    facts.where = m_where;
    read_header(facts);
    read_segments();
    read_sections();
    read_dynamic(facts);
    read_build_id(facts);
    read_comments(facts);
    read_symbols(facts);
    return facts;
  }

 private:
  void read_header(model::ElfFacts& facts) {
    if (m_source.size() < k_ehdr_size) throw ReadError("not an ELF file: too short");
    m_header_bytes = read_range(m_source, 0, k_ehdr_size, k_ehdr_size, "ELF header");
    m_header = ByteView(m_header_bytes);
    if (m_header.u32(0) != 0x464c457f) throw ReadError("not an ELF file");
    if (m_header.u8(4) != k_elf_class_64) throw ReadError("not a 64-bit ELF file");
    if (m_header.u8(5) != k_elf_data_lsb) throw ReadError("not a little-endian ELF file");
    const std::uint16_t type = m_header.u16(16);
    if (type == k_et_core) throw ReadError("an ELF core dump, not a shared object");
    if (type != k_et_dyn && type != k_et_exec)
      throw ReadError("ELF type " + std::to_string(type) + " is not a shared object");
    facts.machine = machine_name(m_header.u16(18));
  }

  void read_segments() {
    const std::uint64_t offset = m_header.u64(32);
    const std::uint64_t count = m_header.u16(56);
    if (offset == 0 || count == 0) return;
    if (m_header.u16(54) != k_phdr_size) throw ReadError("unexpected program header size");
    const auto table_bytes = read_range(m_source, offset, count * k_phdr_size,
                                        k_max_headers * k_phdr_size, "program header table");
    const ByteView table(table_bytes);
    for (std::uint64_t i = 0; i < count; ++i)
      m_segments.push_back(read_program_header(table, i * k_phdr_size));
  }

  void read_sections() {
    const std::uint64_t offset = m_header.u64(40);
    std::uint64_t count = m_header.u16(60);
    std::uint64_t names_index = m_header.u16(62);
    if (offset == 0) return;
    if (m_header.u16(58) != k_shdr_size) throw ReadError("unexpected section header size");
    // Extended numbering: with 0xff00 sections or more, the real counts live in section 0.
    if (count == 0 || names_index == k_shn_xindex) {
      const auto first_bytes =
          read_range(m_source, offset, k_shdr_size, k_shdr_size, "section header 0");
      const ByteView first(first_bytes);
      if (count == 0) count = first.u64(32);
      if (names_index == k_shn_xindex) names_index = first.u32(40);
    }
    if (count > k_max_headers)
      throw ReadError("section header count " + std::to_string(count) + " is implausible");
    const auto table_bytes = read_range(m_source, offset, count * k_shdr_size,
                                        k_max_headers * k_shdr_size, "section header table");
    const ByteView table(table_bytes);
    for (std::uint64_t i = 0; i < count; ++i)
      m_sections.push_back(read_section_header(table, i * k_shdr_size));
    if (names_index != 0 && names_index < m_sections.size()) {
      const Section& names = m_sections[names_index];
      m_section_names_bytes =
          read_range(m_source, names.offset, names.size, k_max_table, "section name table");
      m_section_names = ByteView(m_section_names_bytes);
    }
  }

  const std::vector<std::byte>& dynstr(const Section& table) {
    if (!m_dynstr || m_dynstr->first != table.offset)
      m_dynstr.emplace(table.offset,
                       read_range(m_source, table.offset, table.size, k_max_table, ".dynstr"));
    return m_dynstr->second;
  }

  std::string_view section_name(const Section& section) const {
    if (m_section_names.size() == 0 || section.name >= m_section_names.size()) return {};
    return m_section_names.c_string(section.name);
  }

  const Section* section_of_type(std::uint32_t type) const {
    const auto it = std::find_if(m_sections.begin(), m_sections.end(),
                                 [&](const Section& s) { return s.type == type; });
    return it == m_sections.end() ? nullptr : &*it;
  }

  const Section& linked(const Section& section, std::string_view what) const {
    if (section.link == 0 || section.link >= m_sections.size())
      throw ReadError(std::string(what) + " links to no valid string table");
    return m_sections[section.link];
  }

  // For a dynamic section found only through PT_DYNAMIC: DT_STRTAB is an address.
  std::optional<std::uint64_t> file_offset_of(std::uint64_t address, std::uint64_t size) const {
    for (const Segment& segment : m_segments) {
      if (segment.type != k_pt_load || address < segment.vaddr) continue;
      const std::uint64_t delta = address - segment.vaddr;
      if (delta <= segment.filesz && size <= segment.filesz - delta) return segment.offset + delta;
    }
    return std::nullopt;
  }

  void read_dynamic(model::ElfFacts& facts) {
    std::vector<std::byte> dynamic_bytes;
    const std::vector<std::byte>* section_strings = nullptr;
    if (const Section* section = section_of_type(k_sht_dynamic)) {
      dynamic_bytes = read_range(m_source, section->offset, section->size, k_max_small, ".dynamic");
      section_strings = &dynstr(linked(*section, ".dynamic"));
    } else {
      const auto it = std::find_if(m_segments.begin(), m_segments.end(),
                                   [](const Segment& s) { return s.type == k_pt_dynamic; });
      if (it == m_segments.end()) return;
      dynamic_bytes = read_range(m_source, it->offset, it->filesz, k_max_small, "PT_DYNAMIC");
    }
    const ByteView dynamic(dynamic_bytes);

    std::vector<std::uint64_t> needed;
    std::optional<std::uint64_t> soname;
    std::uint64_t strtab = 0;
    std::uint64_t strsz = 0;
    for (std::uint64_t at = 0; at + k_dyn_size <= dynamic.size(); at += k_dyn_size) {
      const auto tag = static_cast<std::int64_t>(dynamic.u64(at));
      const std::uint64_t value = dynamic.u64(at + 8);
      if (tag == k_dt_null) break;
      if (tag == k_dt_needed) needed.push_back(value);
      if (tag == k_dt_soname) soname = value;
      if (tag == k_dt_strtab) strtab = value;
      if (tag == k_dt_strsz) strsz = value;
    }
    std::vector<std::byte> segment_strings;
    if (!section_strings) {
      const auto offset = file_offset_of(strtab, strsz);
      if (!offset) throw ReadError("DT_STRTAB lies outside every loaded segment");
      segment_strings = read_range(m_source, *offset, strsz, k_max_table, "dynamic string table");
    }
    const ByteView strings(section_strings ? *section_strings : segment_strings);
    for (const std::uint64_t name : needed) facts.needed.emplace_back(strings.c_string(name));
    if (soname) facts.soname = strings.c_string(*soname);
  }

  void read_build_id(model::ElfFacts& facts) {
    for (const Section& section : m_sections) {
      if (section.type != k_sht_note) continue;
      const auto notes =
          read_range(m_source, section.offset, section.size, k_max_small, "note section");
      facts.build_id = find_build_id(ByteView(notes), section.align);
      if (!facts.build_id.empty()) return;
    }
    for (const Segment& segment : m_segments) {
      if (segment.type != k_pt_note) continue;
      const auto notes =
          read_range(m_source, segment.offset, segment.filesz, k_max_small, "PT_NOTE");
      facts.build_id = find_build_id(ByteView(notes), segment.align);
      if (!facts.build_id.empty()) return;
    }
  }

  void read_comments(model::ElfFacts& facts) {
    const auto it = std::find_if(m_sections.begin(), m_sections.end(), [&](const Section& s) {
      return s.type != k_sht_nobits && section_name(s) == ".comment";
    });
    if (it == m_sections.end()) return;
    const auto comment_bytes = read_range(m_source, it->offset, it->size, k_max_small, ".comment");
    const ByteView comment(comment_bytes);
    for (std::uint64_t at = 0; at < comment.size();) {
      const std::string_view text = comment.c_string(at);
      at += text.size() + 1;
      if (!text.empty() &&
          std::find(facts.comments.begin(), facts.comments.end(), text) == facts.comments.end())
        facts.comments.emplace_back(text);
    }
  }

  void read_symbols(model::ElfFacts& facts) {
    const Section* section = section_of_type(k_sht_dynsym);
    if (!section) return;
    const auto symbol_bytes =
        read_range(m_source, section->offset, section->size, k_max_table, ".dynsym");
    const ByteView symbols(symbol_bytes);
    const ByteView strings(dynstr(linked(*section, ".dynsym")));
    std::vector<std::pair<std::size_t, std::string_view>> runtime;  // (rank, name)
    // Entry 0 is the reserved null symbol.
    for (std::uint64_t at = k_sym_size; at + k_sym_size <= symbols.size(); at += k_sym_size) {
      const std::uint16_t section_index = symbols.u16(at + 6);
      if (section_index == k_shn_undef) continue;
      ++facts.defined_dynamic_symbols;
      if ((symbols.u8(at + 4) >> 4) != k_stb_global) continue;
      const std::string_view name = strings.c_string(symbols.u32(at));
      if (const auto rank = cxx_runtime_rank(name)) runtime.emplace_back(*rank, name);
      if (name.starts_with(k_aoti_api_prefix) && facts.aoti_exports.size() < k_max_aoti_exports)
        facts.aoti_exports.emplace_back(name);
    }
    std::sort(facts.aoti_exports.begin(), facts.aoti_exports.end());
    facts.aoti_exports.erase(std::unique(facts.aoti_exports.begin(), facts.aoti_exports.end()),
                             facts.aoti_exports.end());
    // Sorted, so that the sample does not depend on the linker's symbol order.
    std::sort(runtime.begin(), runtime.end());
    facts.cxx_runtime_symbol_count = runtime.size();
    for (std::size_t i = 0; i < runtime.size() && i < k_max_sample; ++i)
      facts.cxx_runtime_symbols.emplace_back(runtime[i].second);
  }

  const RandomAccess& m_source;
  const model::Location& m_where;
  std::vector<std::byte> m_header_bytes;
  ByteView m_header;
  std::vector<std::byte> m_section_names_bytes;
  ByteView m_section_names;
  std::vector<Segment> m_segments;
  std::vector<Section> m_sections;
  // The string table .dynamic and .dynsym both name (the same one in every linker's output), read
  // once: in a model .so it is the largest thing the reader reads.
  std::optional<std::pair<std::uint64_t, std::vector<std::byte>>> m_dynstr;
};

}  // namespace

bool is_aoti_model(const model::ElfFacts& facts) {
  const auto exports = [&](std::string_view name) {
    return std::binary_search(facts.aoti_exports.begin(), facts.aoti_exports.end(), name);
  };
  return (exports("AOTInductorModelContainerCreateWithDevice") ||
          exports("AOTInductorModelContainerCreate")) &&
         exports("AOTInductorModelContainerRun");
}

Parsed<model::ElfFacts> read_shared_object_file(const std::filesystem::path& path,
                                                const model::Location& where) {
  try {
    return read_shared_object(*open_file(path), where);
  } catch (const ReadError& error) {
    return fail(error.what());
  }
}

Parsed<model::ElfFacts> read_shared_object(const RandomAccess& source,
                                           const model::Location& where) {
  try {
    return Reader(source, where).read();
  } catch (const ReadError& error) {
    return fail(error.what());
  }
}

}  // namespace aoti::parsers::elf
