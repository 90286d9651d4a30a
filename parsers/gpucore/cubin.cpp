#include "parsers/gpucore/cubin.hpp"

#include <elfutils/libdw.h>
#include <gelf.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include "parsers/coredump/libelf_init.hpp"
#include "util/demangle.hpp"

namespace aoti::parsers::gpucore {

namespace {

constexpr unsigned k_em_cuda = 190;
constexpr std::size_t k_max_functions = 1 << 20;    // a cuBLAS cubin holds thousands; no cubin more
constexpr std::size_t k_max_kernel_rows = 1 << 20;  // line rows of one kernel kept for its anchor

struct Function {
  std::string name;
  std::uint64_t address = 0;
  std::uint64_t size = 0;
};

struct Range {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
};

}  // namespace

struct Cubin::State {
  std::vector<char> bytes;
  Elf* elf = nullptr;
  std::vector<Function> functions;  // sorted by address
  std::vector<Range> code;          // executable sections

  ~State() {
    if (elf) elf_end(elf);
  }
};

Cubin::Cubin(std::unique_ptr<State> state) : m_state(std::move(state)) {}
Cubin::Cubin(Cubin&&) noexcept = default;
Cubin& Cubin::operator=(Cubin&&) noexcept = default;
Cubin::~Cubin() = default;

Parsed<Cubin> Cubin::open(std::span<const std::byte> image) {
  if (!coredump::libelf_ready()) return fail("libelf is unusable: " + coredump::last_elf_error());
  auto state = std::make_unique<State>();
  state->bytes.assign(reinterpret_cast<const char*>(image.data()),
                      reinterpret_cast<const char*>(image.data()) + image.size());
  if (state->bytes.size() < 4 || std::memcmp(state->bytes.data(),
                                             "\x7f"
                                             "ELF",
                                             4) != 0)
    return fail("the module image is not an ELF file");
  state->elf = elf_memory(state->bytes.data(), state->bytes.size());
  GElf_Ehdr header;
  if (!state->elf || elf_kind(state->elf) != ELF_K_ELF || !gelf_getehdr(state->elf, &header))
    return fail("the module image is not readable as ELF: " + coredump::last_elf_error());
  if (header.e_machine != k_em_cuda)
    return fail("the module image is an ELF file for e_machine " +
                std::to_string(header.e_machine) + ", not a cubin (190)");
  std::size_t names = 0;
  if (elf_getshdrstrndx(state->elf, &names) != 0)
    return fail("the module image has no section names: " + coredump::last_elf_error());
  for (Elf_Scn* scn = elf_nextscn(state->elf, nullptr); scn; scn = elf_nextscn(state->elf, scn)) {
    GElf_Shdr shdr;
    if (!gelf_getshdr(scn, &shdr)) continue;
    if ((shdr.sh_flags & SHF_EXECINSTR) && shdr.sh_size > 0 &&
        shdr.sh_addr <= UINT64_MAX - shdr.sh_size)
      state->code.push_back({shdr.sh_addr, shdr.sh_addr + shdr.sh_size});
    if (shdr.sh_type != SHT_SYMTAB || shdr.sh_entsize == 0) continue;
    Elf_Data* data = elf_getdata(scn, nullptr);
    if (!data) continue;
    const std::size_t count =
        std::min<std::size_t>(shdr.sh_size / shdr.sh_entsize, k_max_functions);
    for (std::size_t i = 0; i < count; ++i) {
      GElf_Sym sym;
      if (!gelf_getsym(data, static_cast<int>(i), &sym)) break;
      if (GELF_ST_TYPE(sym.st_info) != STT_FUNC) continue;
      const char* name = elf_strptr(state->elf, shdr.sh_link, sym.st_name);
      if (!name || !*name) continue;
      state->functions.push_back({name, sym.st_value, sym.st_size});
    }
  }
  std::sort(state->functions.begin(), state->functions.end(),
            [](const Function& a, const Function& b) { return a.address < b.address; });
  return Cubin(std::move(state));
}

bool Cubin::holds(std::uint64_t pc) const {
  return std::any_of(m_state->code.begin(), m_state->code.end(),
                     [pc](const Range& r) { return pc >= r.begin && pc < r.end; });
}

model::GpuCodeLocation Cubin::locate(std::uint64_t pc) const {
  model::GpuCodeLocation out;
  out.pc = pc;
  const auto& functions = m_state->functions;
  std::uint64_t kernel_begin = 0, kernel_end = 0;
  auto after = std::upper_bound(functions.begin(), functions.end(), pc,
                                [](std::uint64_t v, const Function& f) { return v < f.address; });
  if (after != functions.begin()) {
    const Function& f = *std::prev(after);
    if (pc - f.address < std::max<std::uint64_t>(f.size, 1)) {
      out.kernel = f.name;
      out.kernel_name = util::demangle(f.name);
      out.kernel_offset = pc - f.address;
      kernel_begin = f.address;
      kernel_end = f.address + std::max<std::uint64_t>(f.size, 1);
    }
  }
  if (out.kernel.empty()) out.problem = "no kernel symbol of the cubin holds the address";

  // The line table: libdw reads .debug_line alone (a cubin has no .debug_info for its CUs).
  Dwarf* dwarf = dwarf_begin_elf(m_state->elf, DWARF_C_READ, nullptr);
  if (!dwarf) {
    if (out.problem.empty())
      out.problem = "the cubin has no line table (compiled without -lineinfo)";
    return out;
  }
  Dwarf_Off offset = 0;
  Dwarf_Off next = 0;
  Dwarf_CU* cu = nullptr;
  Dwarf_Files* files = nullptr;
  std::size_t file_count = 0;
  Dwarf_Lines* lines = nullptr;
  std::size_t line_count = 0;
  bool found = false;
  for (int tables = 0;
       !found && tables < 4096 &&
       dwarf_next_lines(dwarf, offset, &next, &cu, &files, &file_count, &lines, &line_count) == 0;
       ++tables) {
    // The kernel's rows of this table, (file, line): its lowest line once the pc is found here.
    std::vector<std::pair<std::string, int>> kernel_rows;
    for (std::size_t i = 0; i + 1 < line_count; ++i) {
      Dwarf_Line* row = dwarf_onesrcline(lines, i);
      Dwarf_Line* following = dwarf_onesrcline(lines, i + 1);
      Dwarf_Addr begin = 0;
      Dwarf_Addr end = 0;
      bool end_sequence = false;
      if (!row || !following || dwarf_lineaddr(row, &begin) != 0 ||
          dwarf_lineaddr(following, &end) != 0 || dwarf_lineendsequence(row, &end_sequence) != 0)
        continue;
      if (end_sequence) continue;
      const bool in_kernel = kernel_end > kernel_begin && begin < kernel_end && end > kernel_begin;
      if (!in_kernel && (found || pc < begin || pc >= end)) continue;
      int line = 0;
      if (dwarf_lineno(row, &line) != 0 || line <= 0) continue;
      const char* file = dwarf_linesrc(row, nullptr, nullptr);
      if (in_kernel && kernel_rows.size() < k_max_kernel_rows)
        kernel_rows.emplace_back(file ? file : "", line);
      if (found || pc < begin || pc >= end) continue;
      out.line = line;
      out.file = file ? file : "";
      found = true;
    }
    if (found)
      for (const auto& [file, line] : kernel_rows)
        if (file == out.file && (out.kernel_first_line == 0 || line < out.kernel_first_line))
          out.kernel_first_line = line;
    if (next == static_cast<Dwarf_Off>(-1) || next <= offset) break;
    offset = next;
  }
  dwarf_end(dwarf);
  if (!found && out.problem.empty())
    out.problem = "no row of the cubin's line table holds the address";
  return out;
}

}  // namespace aoti::parsers::gpucore
