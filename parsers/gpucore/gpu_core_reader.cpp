#include "parsers/gpucore/gpu_core_reader.hpp"

#include <gelf.h>
#include <zlib.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>

#include "parsers/coredump/libelf_init.hpp"
#include "parsers/elf/types.hpp"
#include "parsers/gpucore/cubin.hpp"
#include "util/byte_reader.hpp"
#include "util/expected.hpp"
#include "util/format_size.hpp"
#include "util/mapping_guard.hpp"

namespace aoti::parsers::gpucore {

namespace {

using namespace aoti::model;
using util::ByteView;

constexpr unsigned k_em_cuda = 190;

// cudacoredump.h's CudbgSectionHeaderTypes: SHT_LOUSER + n.
enum SectionType : std::uint32_t {
  k_global_memory = 0x80000002,
  k_elf_image = 0x80000006,
  k_relocated_elf_image = 0x80000007,
  k_device_table = 0x80000009,
  k_context_table = 0x8000000a,
  k_sm_table = 0x8000000b,
  k_grid_table = 0x8000000c,
  k_cta_table = 0x8000000d,
  k_warp_table = 0x8000000e,
  k_lane_table = 0x8000000f,
  k_module_table = 0x80000010,
  k_meta_data = 0x80000016,
};

// CUDBGCoredumpGenerationFlags, in cudadebugger.h.
constexpr std::uint32_t k_skip_nonrelocated_images = 1u << 0;
constexpr std::uint32_t k_skip_global_memory = 1u << 1;
constexpr std::uint32_t k_skip_shared_memory = 1u << 2;
constexpr std::uint32_t k_skip_local_memory = 1u << 3;
constexpr std::uint32_t k_skip_constbank_memory = 1u << 5;
constexpr std::uint32_t k_lightweight = k_skip_nonrelocated_images | k_skip_global_memory |
                                        k_skip_shared_memory | k_skip_local_memory |
                                        k_skip_constbank_memory;

// Bounds on what one dump may make us hold: far above any real device (132 SMs x 64 warps x 32
// lanes on an H200), so only a forged table meets them.
constexpr std::size_t k_max_rows = 1 << 20;
constexpr std::size_t k_max_faulting_warps = 4096;

GpuCodeLocation at(std::uint64_t pc) {
  GpuCodeLocation location;
  location.pc = pc;
  return location;
}

struct Section {
  std::size_t index = 0;
  std::string name;
  std::uint32_t type = 0;
  std::uint64_t address = 0;
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
  std::uint64_t row_size = 0;  // sh_entsize
  std::uint32_t link = 0;
  std::uint32_t info = 0;
};

// One table: its rows, each read by the size the section declares. A field past the end of a row
// (an older driver's shorter row) reads as 0, i.e. absent.
class Table {
 public:
  Table() = default;
  Table(ByteView bytes, std::uint64_t row_size) : m_bytes(bytes), m_row_size(row_size) {}
  std::size_t rows() const {
    return m_row_size ? std::min<std::uint64_t>(m_bytes.size() / m_row_size, k_max_rows) : 0;
  }
  std::uint32_t u32(std::size_t row, std::uint64_t field) const {
    return field + 4 <= m_row_size ? m_bytes.u32(row * m_row_size + field) : 0;
  }
  std::uint64_t u64(std::size_t row, std::uint64_t field) const {
    return field + 8 <= m_row_size ? m_bytes.u64(row * m_row_size + field) : 0;
  }
  bool has(std::uint64_t field, std::uint64_t width) const { return field + width <= m_row_size; }

 private:
  ByteView m_bytes;
  std::uint64_t m_row_size = 0;
};

class Reader {
 public:
  Reader(std::span<const std::byte> file, GpuCoreFacts& facts) : m_file(file), m_facts(facts) {}

  void read(Elf* elf);

 private:
  // Tables are read through every lane table that links to them: a bad one is told once.
  void note(std::string text) {
    auto& health = m_facts.health;
    if (health.size() < 64 && std::find(health.begin(), health.end(), text) == health.end())
      health.push_back(std::move(text));
  }
  std::optional<ByteView> bytes(const Section& s);
  std::optional<Table> table(const Section& s, std::uint64_t min_row, std::string_view what);
  const Section* section(std::uint32_t index, std::uint32_t type) const {
    auto it = m_by_index.find(index);
    return it != m_by_index.end() && it->second->type == type ? it->second : nullptr;
  }
  std::string string_at(std::uint64_t offset);

  void read_meta(const Section& s);
  void read_devices(const Section& s);
  void read_contexts(const Section& s);
  void read_modules(const Section& s);
  void read_images();
  void read_grids(const Section& s);
  void read_warps(const Section& lanes);
  void add_sm_exceptions();
  void symbolize();
  GpuCodeLocation locate(std::uint32_t device, std::uint64_t module_handle, std::uint64_t pc);
  const Cubin* cubin(std::size_t module);

  std::span<const std::byte> m_file;
  GpuCoreFacts& m_facts;
  std::vector<Section> m_sections;
  std::map<std::uint32_t, const Section*> m_by_index;
  std::optional<ByteView> m_strings;
  // What is kept of each module (by index into facts.modules): its images, its cubin once opened.
  struct ModuleImages {
    const Section* relocated = nullptr;  // the code as it ran: symbolization reads this one
    const Section* identity = nullptr;   // the image image_crc32 is computed over
    bool opened = false;
    std::optional<Cubin> cubin;
  };
  std::vector<ModuleImages> m_images;
};

std::optional<ByteView> Reader::bytes(const Section& s) {
  if (s.offset > m_file.size() || s.size > m_file.size() - s.offset) {
    note("section " + s.name + " (" + util::format_size(s.size) + " at offset " +
         std::to_string(s.offset) + ") lies past the end of the file (" +
         util::format_size(m_file.size()) + "): the dump is truncated");
    return std::nullopt;
  }
  return ByteView(m_file.subspan(s.offset, s.size));
}

std::optional<Table> Reader::table(const Section& s, std::uint64_t min_row, std::string_view what) {
  auto data = bytes(s);
  if (!data) return std::nullopt;
  if (s.size == 0) return Table();
  if (s.row_size < min_row || s.row_size > s.size) {
    note(std::string(what) + " " + s.name + " declares rows of " + std::to_string(s.row_size) +
         " bytes (" +
         (s.row_size > s.size
              ? "more than the section's " + std::to_string(s.size)
              : "fewer than the " + std::to_string(min_row) + " its first fields need") +
         "): not read");
    return std::nullopt;
  }
  if (s.size % s.row_size != 0)
    note(std::string(what) + " " + s.name + " is not a whole number of " +
         std::to_string(s.row_size) + "-byte rows: the tail is ignored");
  return Table(*data, s.row_size);
}

std::string Reader::string_at(std::uint64_t offset) {
  if (!m_strings) return {};
  if (offset >= m_strings->size()) return {};
  return std::string(m_strings->c_string(offset).substr(0, 256));
}

void Reader::read(Elf* elf) {
  std::size_t names = 0;
  if (elf_getshdrstrndx(elf, &names) != 0) {
    note("no section name table: " + coredump::last_elf_error());
    return;
  }
  for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
    GElf_Shdr shdr;
    if (!gelf_getshdr(scn, &shdr)) continue;
    const char* name = elf_strptr(elf, names, shdr.sh_name);
    m_sections.push_back({elf_ndxscn(scn), name ? name : "", shdr.sh_type, shdr.sh_addr,
                          shdr.sh_offset, shdr.sh_size, shdr.sh_entsize, shdr.sh_link,
                          shdr.sh_info});
  }
  for (const auto& s : m_sections) m_by_index[static_cast<std::uint32_t>(s.index)] = &s;
  for (const auto& s : m_sections)
    if (s.name == ".strtab") m_strings = bytes(s);

  const Section* devices = nullptr;
  for (const auto& s : m_sections) {
    if (s.type == k_meta_data) read_meta(s);
    if (s.type == k_device_table && !devices) devices = &s;
  }
  if (!devices) {
    note("no device table (.cudbg.devtbl): not a CUDA GPU core dump, or one cut before its tables");
    return;
  }
  read_devices(*devices);
  for (const auto& s : m_sections)
    if (s.type == k_context_table) read_contexts(s);
  for (const auto& s : m_sections)
    if (s.type == k_module_table) read_modules(s);
  read_images();
  for (const auto& s : m_sections)
    if (s.type == k_grid_table) read_grids(s);
  for (const auto& s : m_sections)
    if (s.type == k_lane_table) read_warps(s);
  add_sm_exceptions();
  symbolize();
  const bool skipped =
      m_facts.generation_flags && (*m_facts.generation_flags & k_skip_global_memory);
  if (!skipped && !std::any_of(m_sections.begin(), m_sections.end(),
                               [](const Section& s) { return s.type == k_global_memory; }))
    note("no device memory was dumped (no .cudbg.global sections)");
}

void Reader::read_meta(const Section& s) {
  // One CudbgMetaDataEntry; drivers write it with a row size of 0.
  Section one = s;
  if (one.row_size == 0) one.row_size = one.size;
  auto t = table(one, 8, "the metadata table");
  if (!t || t->rows() == 0) return;
  m_facts.generator = string_at(t->u64(0, 0));
  if (const std::uint32_t major = t->u32(0, 8); major != 0)
    m_facts.driver_version = std::to_string(major) + "." + std::to_string(t->u32(0, 12));
  if (const std::uint32_t major = t->u32(0, 16); major != 0)
    m_facts.cuda_version = std::to_string(major) + "." + std::to_string(t->u32(0, 20));
  if (t->has(24, 4)) {
    const std::uint32_t flags = t->u32(0, 24);
    m_facts.generation_flags = flags;
    m_facts.lightweight = (flags & k_lightweight) == k_lightweight;
  }
}

void Reader::read_devices(const Section& s) {
  // CudbgDeviceTableEntry: devName, devType, smType (string table offsets), devId, ..., numSMs at
  // 36, smMajor at 56.
  auto t = table(s, 60, "the device table");
  if (!t) return;
  for (std::size_t row = 0; row < t->rows(); ++row) {
    GpuDevice d;
    d.index = static_cast<std::uint32_t>(row);
    d.name = string_at(t->u64(row, 0));
    d.type = string_at(t->u64(row, 8));
    d.sm_type = string_at(t->u64(row, 16));
    d.sm_count = t->u32(row, 36);
    if (d.sm_type.empty() && t->u32(row, 56) != 0)
      d.sm_type = "sm_" + std::to_string(t->u32(row, 56)) + std::to_string(t->u32(row, 60));
    m_facts.devices.push_back(std::move(d));
  }
}

void Reader::read_contexts(const Section& s) {
  // CudbgContextTableEntry: contextId, three window bases, deviceIdx at 32, tid at 36.
  auto t = table(s, 40, "the context table");
  if (!t) return;
  for (std::size_t row = 0; row < t->rows(); ++row)
    m_facts.contexts.push_back(
        {s.info, static_cast<std::uint32_t>(row), t->u64(row, 0), t->u32(row, 36)});
}

void Reader::read_modules(const Section& s) {
  const Section* contexts = section(s.link, k_context_table);
  if (!contexts) {
    note("module table " + s.name + " links to section " + std::to_string(s.link) +
         ", which is not a context table: not read");
    return;
  }
  auto t = table(s, 8, "the module table");
  if (!t) return;
  for (std::size_t row = 0; row < t->rows(); ++row) {
    GpuModule m;
    m.device = contexts->info;
    m.context = s.info;
    m.index = static_cast<std::uint32_t>(row);
    m.handle = t->u64(row, 0);
    m.table_section = static_cast<std::uint32_t>(s.index);
    m_facts.modules.push_back(m);
  }
}

void Reader::read_images() {
  m_images.resize(m_facts.modules.size());
  for (const auto& s : m_sections) {
    if (s.type != k_elf_image && s.type != k_relocated_elf_image) continue;
    const auto module = std::find_if(
        m_facts.modules.begin(), m_facts.modules.end(),
        [&](const GpuModule& m) { return m.table_section == s.link && m.index == s.info; });
    if (module == m_facts.modules.end()) {
      note("cubin image " + s.name + " (section " + std::to_string(s.index) +
           ") names no row of a module table: ignored");
      continue;
    }
    const std::size_t index = static_cast<std::size_t>(module - m_facts.modules.begin());
    if (s.type == k_relocated_elf_image) {
      module->has_relocated_image = true;
      m_images[index].relocated = &s;
    }
    // The package's cubin is the non-relocated image; a lightweight dump keeps only the other.
    if (s.type == k_elf_image || module->image_size == 0) {
      module->image_size = s.size;
      module->image_relocated = s.type == k_relocated_elf_image;
      m_images[index].identity = &s;
    }
  }
}

void Reader::read_grids(const Section& s) {
  // CudbgGridTableEntry: gridId64, contextId, function, functionEntry, moduleHandle,
  // parentGridId64, paramsOffset (7 x u64), kernelType, origin, gridStatus, numRegs, gridDim xyz,
  // blockDim xyz, attrLaunchBlocking, attrHostTid.
  auto t = table(s, 104, "the grid table");
  if (!t) return;
  for (std::size_t row = 0; row < t->rows(); ++row) {
    GpuGrid g;
    g.device = s.info;
    g.id = t->u64(row, 0);
    g.entry.pc = t->u64(row, 24);
    g.module_handle = t->u64(row, 32);
    g.grid_dim = {t->u32(row, 72), t->u32(row, 76), t->u32(row, 80)};
    g.block_dim = {t->u32(row, 84), t->u32(row, 88), t->u32(row, 92)};
    g.host_tid = t->u32(row, 100);
    m_facts.grids.push_back(std::move(g));
  }
}

// A lane table and its parents: lntbl -(link, info)-> warp row -> CTA row -> SM row -> device.
void Reader::read_warps(const Section& lanes_section) {
  if (m_facts.faulting_warps.size() >= k_max_faulting_warps) return;
  const Section* warps = section(lanes_section.link, k_warp_table);
  const Section* ctas = warps ? section(warps->link, k_cta_table) : nullptr;
  const Section* sms = ctas ? section(ctas->link, k_sm_table) : nullptr;
  if (!sms) {
    note("lane table " + lanes_section.name +
         " does not link through a warp, block and SM table: not read");
    return;
  }
  // CudbgThreadTableEntry: virtualPC, physPC, ln, threadIdx xyz, exception at 32.
  auto lanes = table(lanes_section, 36, "the lane table");
  auto warp_rows = table(*warps, 32, "the warp table");
  auto cta_rows = table(*ctas, 20, "the block table");
  auto sm_rows = table(*sms, 4, "the SM table");
  if (!lanes || !warp_rows || !cta_rows || !sm_rows) return;
  const std::size_t warp = lanes_section.info;
  const std::size_t cta = warps->info;
  const std::size_t sm = ctas->info;
  if (warp >= warp_rows->rows() || cta >= cta_rows->rows() || sm >= sm_rows->rows()) {
    note("lane table " + lanes_section.name + " names warp " + std::to_string(warp) + ", block " +
         std::to_string(cta) + " or SM row " + std::to_string(sm) + " past its table: not read");
    return;
  }
  GpuWarp w;
  for (std::size_t row = 0; row < lanes->rows(); ++row) {
    const std::uint32_t exception = lanes->u32(row, 32);
    if (exception == 0) continue;
    GpuLane lane;
    lane.lane = lanes->u32(row, 16);
    lane.thread = {lanes->u32(row, 20), lanes->u32(row, 24), lanes->u32(row, 28)};
    lane.exception = exception;
    lane.pc = lanes->u64(row, 0);
    if (w.faulting_lanes.size() < 32) w.faulting_lanes.push_back(lane);
  }
  // CudbgWarpTableEntry: errorPC, warpId, validLanesMask, activeLanesMask, isWarpBroken,
  // errorPCValid at 24.
  const bool error_pc_valid = warp_rows->u32(warp, 24) != 0;
  if (w.faulting_lanes.empty() && !error_pc_valid) return;
  w.device = sms->info;
  w.sm = sm_rows->u32(sm, 0);
  w.warp = warp_rows->u32(warp, 8);
  w.valid_lanes = warp_rows->u32(warp, 12);
  w.active_lanes = warp_rows->u32(warp, 16);
  w.grid = cta_rows->u64(cta, 0);
  w.block = {cta_rows->u32(cta, 8), cta_rows->u32(cta, 12), cta_rows->u32(cta, 16)};
  w.exception = w.faulting_lanes.empty() ? 0 : w.faulting_lanes.front().exception;
  if (error_pc_valid) w.error = at(warp_rows->u64(warp, 0));
  if (!w.faulting_lanes.empty()) w.stop = at(w.faulting_lanes.front().pc);
  // The SM row says which exception when the lanes do not (since r555: exception at 8).
  if (sm_rows->has(8, 4)) {
    const std::uint32_t sm_exception = sm_rows->u32(sm, 8);
    if (w.exception == 0) w.exception = sm_exception;
  }
  w.exception_name = gpu_exception_name(w.exception);
  m_facts.faulting_warps.push_back(std::move(w));
}

// SMs whose row records an exception (since r555) but none of whose warps is in the dump: the
// faulting warps had exited. Each becomes a warp record with what the SM row says.
void Reader::add_sm_exceptions() {
  for (const auto& s : m_sections) {
    if (s.type != k_sm_table) continue;
    auto t = table(s, 4, "the SM table");
    if (!t || !t->has(24, 8)) continue;
    for (std::size_t row = 0; row < t->rows(); ++row) {
      const std::uint32_t exception = t->u32(row, 8);
      if (exception == 0) continue;
      const std::uint32_t sm_id = t->u32(row, 0);
      const bool known =
          std::any_of(m_facts.faulting_warps.begin(), m_facts.faulting_warps.end(),
                      [&](const GpuWarp& w) { return w.device == s.info && w.sm == sm_id; });
      if (known || m_facts.faulting_warps.size() >= k_max_faulting_warps) continue;
      GpuWarp w;
      w.device = s.info;
      w.sm = sm_id;
      w.from_sm_table = true;
      w.exception = exception;
      w.exception_name = gpu_exception_name(exception);
      if (t->u32(row, 12) != 0) w.error = at(t->u64(row, 16));
      m_facts.faulting_warps.push_back(std::move(w));
    }
  }
}

const Cubin* Reader::cubin(std::size_t module) {
  ModuleImages& images = m_images[module];
  if (!images.opened && images.relocated) {
    if (auto data = bytes(*images.relocated)) {
      auto parsed = Cubin::open(data->bytes());
      if (parsed)
        images.cubin = std::move(*parsed);
      else
        note("module " + std::to_string(m_facts.modules[module].index) + " (" +
             images.relocated->name + "): " + parsed.error().message);
    }
  }
  images.opened = true;
  return images.cubin ? &*images.cubin : nullptr;
}

// The module of `module_handle` first (the grid's own), else any relocated image holding `pc`.
GpuCodeLocation Reader::locate(std::uint32_t device, std::uint64_t module_handle,
                               std::uint64_t pc) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < m_facts.modules.size(); ++i)
    if (m_facts.modules[i].device == device && m_facts.modules[i].handle == module_handle)
      order.push_back(i);
  for (std::size_t i = 0; i < m_facts.modules.size(); ++i)
    if (m_facts.modules[i].device == device && m_facts.modules[i].handle != module_handle)
      order.push_back(i);
  for (std::size_t i : order) {
    const Cubin* c = cubin(i);
    if (!c || !c->holds(pc)) continue;
    GpuCodeLocation at = c->locate(pc);
    at.module = static_cast<std::uint32_t>(i);
    GpuModule& module = m_facts.modules[i];
    if (!module.image_crc32 && m_images[i].identity)
      if (auto data = bytes(*m_images[i].identity))
        module.image_crc32 = static_cast<std::uint32_t>(
            crc32_z(0, reinterpret_cast<const Bytef*>(data->bytes().data()), data->size()));
    return at;
  }
  GpuCodeLocation none;
  none.pc = pc;
  none.problem = "no relocated cubin in the dump holds the address";
  return none;
}

void Reader::symbolize() {
  for (auto& g : m_facts.grids) g.entry = locate(g.device, g.module_handle, g.entry.pc);
  for (auto& w : m_facts.faulting_warps) {
    std::uint64_t handle = 0;
    for (const auto& g : m_facts.grids)
      if (g.device == w.device && g.id == w.grid) handle = g.module_handle;
    if (w.error) w.error = locate(w.device, handle, w.error->pc);
    if (w.stop) w.stop = locate(w.device, handle, w.stop->pc);
  }
}

Parsed<GpuCoreFacts> read_elf(Elf* elf, std::span<const std::byte> file, const std::string& who) {
  GElf_Ehdr header;
  if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &header))
    return fail(who + ": not an ELF file");
  if (header.e_type != elf::k_et_core || header.e_machine != k_em_cuda)
    return fail(who + ": not a CUDA GPU core dump (e_type " + std::to_string(header.e_type) +
                ", e_machine " + std::to_string(header.e_machine) + ")");
  if (header.e_shoff > file.size() ||
      header.e_shnum * std::uint64_t{header.e_shentsize} > file.size() - header.e_shoff)
    return fail(who + ": truncated: the section header table (at offset " +
                std::to_string(header.e_shoff) + ") lies past the end of the file (" +
                util::format_size(file.size()) +
                "), and without it no table of the dump can be found");
  GpuCoreFacts facts;
  facts.artifact = who;
  try {
    Reader(file, facts).read(elf);
  } catch (const util::ReadError& e) {
    facts.health.push_back(std::string("stopped reading: ") + e.what());
  }
  return facts;
}

}  // namespace

Parsed<GpuCoreFacts> read_gpu_core_bytes(std::span<const std::byte> file,
                                         const std::string& display) {
  if (!coredump::libelf_ready()) return fail("libelf is unusable: " + coredump::last_elf_error());
  // elf_memory wants writable memory; libelf does not write to an image it only reads.
  Elf* elf = elf_memory(const_cast<char*>(reinterpret_cast<const char*>(file.data())), file.size());
  if (!elf) return fail(display + ": not readable as ELF: " + coredump::last_elf_error());
  auto facts = read_elf(elf, file, display);
  elf_end(elf);
  return facts;
}

Parsed<GpuCoreFacts> read_gpu_core(const std::filesystem::path& path, const std::string& display,
                                   const GpuCoreReadOptions& options) {
  if (!coredump::libelf_ready()) return fail("libelf is unusable: " + coredump::last_elf_error());
  TRY_ASSIGN(coredump::OpenedDump opened,
             coredump::open_dump(path, display, "GPU core", options.decoding));
  Elf* elf = elf_begin(opened.file.get(), ELF_C_READ_MMAP, nullptr);
  if (!elf) return fail(display + ": not readable as ELF: " + coredump::last_elf_error());
  std::size_t size = 0;
  const char* raw = elf_rawfile(elf, &size);
  auto guard = std::make_unique<util::MappingGuard>(raw, size);
  Parsed<GpuCoreFacts> facts =
      raw ? read_elf(elf, {reinterpret_cast<const std::byte*>(raw), size}, display)
          : fail(display + ": cannot map the file: " + coredump::last_elf_error());
  const bool cut = guard->cut();
  guard.reset();  // before libelf unmaps what it guards
  elf_end(elf);
  if (cut) return fail(display + ": " + std::string(coredump::k_cut_while_read));
  if (!facts) return facts;
  facts->compression = std::string(coredump::to_string(opened.compression));
  facts->health.insert(facts->health.begin(), opened.health.begin(), opened.health.end());
  return facts;
}

bool looks_like_gpu_core(std::string_view head) {
  auto is_gpu_core = [](std::string_view bytes) {
    // e_ident, e_type (ET_CORE) at 16, e_machine (190) at 18, both little-endian.
    return bytes.size() >= 20 &&
           bytes.substr(0, 4) ==
               "\x7f"
               "ELF" &&
           static_cast<unsigned char>(bytes[16]) == elf::k_et_core && bytes[17] == 0 &&
           static_cast<unsigned char>(bytes[18]) == k_em_cuda && bytes[19] == 0;
  };
  return is_gpu_core(coredump::plain_head(head, 64));
}

}  // namespace aoti::parsers::gpucore
