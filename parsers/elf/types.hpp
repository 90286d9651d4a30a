// The ELF64 numbers and records both ELF readers use: the model .so reader (elf_reader) and the
// core reader (parsers/coredump). Policy: our code spells ELF numbers from here and never
// includes <elf.h>. The readers read every field by offset, explicitly little-endian (through
// util::ByteView), so the host's struct layouts and byte order do not matter; older hosts'
// <elf.h> lacks NT_FILE and NT_SIGINFO; and one spelling per number is one place to check it.
// Code that calls libelf/libdwfl compares their results with these values too.
#pragma once

#include <cstddef>
#include <cstdint>

#include "util/byte_reader.hpp"

namespace aoti::parsers::elf {

// e_ident
inline constexpr std::uint8_t k_elf_class_64 = 2;  // EI_CLASS (byte 4)
inline constexpr std::uint8_t k_elf_data_lsb = 1;  // EI_DATA (byte 5)
// e_type
inline constexpr std::uint16_t k_et_exec = 2;
inline constexpr std::uint16_t k_et_dyn = 3;
inline constexpr std::uint16_t k_et_core = 4;
// e_machine
inline constexpr std::uint16_t k_em_x86_64 = 62;
// p_type, p_flags
inline constexpr std::uint32_t k_pt_load = 1;
inline constexpr std::uint32_t k_pt_dynamic = 2;
inline constexpr std::uint32_t k_pt_note = 4;
inline constexpr std::uint32_t k_pt_phdr = 6;
inline constexpr std::uint32_t k_pf_x = 1;
inline constexpr std::uint32_t k_pf_w = 2;
inline constexpr std::uint32_t k_pf_r = 4;
// sh_type, and the section index that says "undefined"
inline constexpr std::uint32_t k_sht_dynamic = 6;
inline constexpr std::uint32_t k_sht_note = 7;
inline constexpr std::uint32_t k_sht_nobits = 8;
inline constexpr std::uint32_t k_sht_dynsym = 11;
inline constexpr std::uint16_t k_shn_undef = 0;
inline constexpr std::uint16_t k_shn_xindex = 0xffff;
// d_tag
inline constexpr std::int64_t k_dt_null = 0;
inline constexpr std::int64_t k_dt_needed = 1;
inline constexpr std::int64_t k_dt_strtab = 5;
inline constexpr std::int64_t k_dt_strsz = 10;
inline constexpr std::int64_t k_dt_soname = 14;
inline constexpr std::int64_t k_dt_debug = 21;
// st_info binding
inline constexpr std::uint8_t k_stb_global = 1;
// n_type, told apart by the owner: NT_GNU_BUILD_ID ("GNU") shares 3 with NT_PRPSINFO ("CORE").
inline constexpr std::uint32_t k_nt_gnu_build_id = 3;
inline constexpr std::uint32_t k_nt_prstatus = 1;
inline constexpr std::uint32_t k_nt_prpsinfo = 3;
inline constexpr std::uint32_t k_nt_auxv = 6;
inline constexpr std::uint32_t k_nt_siginfo = 0x53494749;
inline constexpr std::uint32_t k_nt_file = 0x46494c45;
// a_type of NT_AUXV entries
inline constexpr std::uint64_t k_at_null = 0;
inline constexpr std::uint64_t k_at_phdr = 3;
inline constexpr std::uint64_t k_at_phent = 4;
inline constexpr std::uint64_t k_at_phnum = 5;
inline constexpr std::uint64_t k_at_entry = 9;
inline constexpr std::uint64_t k_at_execfn = 31;

// Record sizes: Elf64_Ehdr, Elf64_Phdr, Elf64_Shdr, Elf64_Sym, Elf64_Dyn.
inline constexpr std::size_t k_ehdr_size = 64;
inline constexpr std::size_t k_phdr_size = 56;
inline constexpr std::size_t k_shdr_size = 64;
inline constexpr std::size_t k_sym_size = 24;
inline constexpr std::size_t k_dyn_size = 16;

// One program header, the fields the readers use.
struct Segment {
  std::uint32_t type = 0;
  std::uint32_t flags = 0;  // k_pf_r | k_pf_w | k_pf_x; 0 = PROT_NONE
  std::uint64_t offset = 0;
  std::uint64_t vaddr = 0;
  std::uint64_t filesz = 0;
  std::uint64_t memsz = 0;
  std::uint64_t align = 0;

  std::uint64_t end() const { return vaddr + memsz; }
  bool contains(std::uint64_t va) const { return va >= vaddr && va - vaddr < memsz; }
};

// One section header, the fields the readers use.
struct Section {
  std::uint32_t name = 0;  // offset in the section name table
  std::uint32_t type = 0;
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
  std::uint32_t link = 0;
  std::uint64_t align = 0;
};

// The Elf64_Phdr / Elf64_Shdr at `at` of a header table; throws util::ReadError past its end.
inline Segment read_program_header(const util::ByteView& table, std::uint64_t at) {
  return {.type = table.u32(at),
          .flags = table.u32(at + 4),
          .offset = table.u64(at + 8),
          .vaddr = table.u64(at + 16),
          .filesz = table.u64(at + 32),
          .memsz = table.u64(at + 40),
          .align = table.u64(at + 48)};
}

inline Section read_section_header(const util::ByteView& table, std::uint64_t at) {
  return {.name = table.u32(at),
          .type = table.u32(at + 4),
          .offset = table.u64(at + 24),
          .size = table.u64(at + 32),
          .link = table.u32(at + 40),
          .align = table.u64(at + 48)};
}

}  // namespace aoti::parsers::elf
