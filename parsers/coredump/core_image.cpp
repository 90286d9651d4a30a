#include "parsers/coredump/core_image.hpp"

#include <gelf.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "parsers/coredump/libelf_init.hpp"
#include "parsers/elf/notes.hpp"
#include "util/byte_reader.hpp"

namespace aoti::parsers::coredump {

namespace {

using namespace elf;

using util::ByteView;

// A fixed-size text field of a note (pr_fname, pr_psargs): NUL-terminated unless it fills it.
std::string fixed_text(const ByteView& desc, std::uint64_t offset, std::uint64_t size) {
  return std::string(desc.sub(offset, size).c_string(0));
}

// Linux x86-64 signal numbers (the core's, not the analyzing host's).
bool has_fault_address(int signo, int code) {
  const bool fault = signo == 11 /*SEGV*/ || signo == 7 /*BUS*/ || signo == 4 /*ILL*/ ||
                     signo == 8 /*FPE*/ || signo == 5 /*TRAP*/;
  return fault && code > 0;  // code <= 0: sent by a process (kill, tkill, raise), no address
}

ThreadNote parse_prstatus(const ByteView& desc) {
  // struct elf_prstatus: pr_cursig at 12, pr_pid at 32, pr_reg (27 x u64) at 112.
  ThreadNote thread;
  thread.cursig = desc.read<std::int16_t>(12);
  thread.tid = desc.read<std::int32_t>(32);
  for (std::size_t i = 0; i < thread.regs.size(); ++i) thread.regs[i] = desc.u64(112 + 8 * i);
  return thread;
}

// The kernel's siginfo_t: si_signo 0, si_errno 4, si_code 8, then the union at 16.
constexpr std::uint64_t k_siginfo_header_size = 12;

SignalNote parse_siginfo(const ByteView& desc) {
  SignalNote signal;
  signal.signo = desc.read<std::int32_t>(0);
  signal.error = desc.read<std::int32_t>(4);
  signal.code = desc.read<std::int32_t>(8);
  if (has_fault_address(signal.signo, signal.code) && desc.has(16, 8))
    signal.address = desc.u64(16);
  else if (signal.code <= 0 && desc.has(16, 4))
    signal.sender_pid = desc.read<std::int32_t>(16);
  return signal;
}

// NT_FILE: count, page_size, count x {start, end, page offset}, then count NUL-terminated paths.
std::optional<std::vector<FileMapping>> parse_file_note(const ByteView& desc,
                                                        std::string& problem) {
  std::uint64_t table_size = 0;
  if (!desc.has(0, 16) || __builtin_mul_overflow(desc.u64(0), 24, &table_size) ||
      !desc.has(16, table_size)) {
    problem = "NT_FILE is malformed (its entry count does not fit the note)";
    return std::nullopt;
  }
  const std::uint64_t count = desc.u64(0);
  const std::uint64_t page_size = desc.u64(8);
  std::vector<FileMapping> files;
  files.reserve(count);
  std::size_t name_at = 16 + table_size;
  for (std::uint64_t i = 0; i < count; ++i) {
    FileMapping file;
    file.start = desc.u64(16 + 24 * i);
    file.end = desc.u64(16 + 24 * i + 8);
    const std::uint64_t pages = desc.u64(16 + 24 * i + 16);
    if (file.end < file.start || __builtin_mul_overflow(pages, page_size, &file.file_offset) ||
        name_at >= desc.size()) {
      problem = "NT_FILE is malformed at entry " + std::to_string(i);
      break;
    }
    file.path = desc.c_string(name_at);
    name_at += file.path.size() + 1;
    files.push_back(std::move(file));
  }
  return files;
}

}  // namespace

Parsed<CoreImage> CoreImage::open(util::Fd file, std::string_view name, Source source) {
  const std::string who(name);
  if (!libelf_ready()) return fail("libelf is unusable: " + last_elf_error());
  CoreImage image;
  image.m_fd = std::move(file);
  image.m_elf = elf_begin(image.m_fd.get(), ELF_C_READ_MMAP, nullptr);
  if (!image.m_elf) return fail(who + ": not readable as ELF: " + last_elf_error());
  GElf_Ehdr header;
  if (elf_kind(image.m_elf) != ELF_K_ELF || !gelf_getehdr(image.m_elf, &header))
    return fail(who + ": not an ELF file");
  if (header.e_type != k_et_core)
    return fail(who + ": an ELF file, but not a core dump (e_type " +
                std::to_string(header.e_type) + ")");
  if (header.e_ident[4] != k_elf_class_64 || header.e_ident[5] != k_elf_data_lsb ||
      header.e_machine != k_em_x86_64)
    return fail(who + ": a core dump for another architecture (e_machine " +
                std::to_string(header.e_machine) + "); only x86-64 cores are supported");
  std::size_t size = 0;
  const char* raw = elf_rawfile(image.m_elf, &size);
  if (!raw) return fail(who + ": cannot map the file: " + last_elf_error());
  image.m_file = {reinterpret_cast<const std::byte*>(raw), size};
  image.m_guard = std::make_unique<util::MappingGuard>(raw, size);
  if (source == Source::decoded) {
    // Read-ahead on a fault in a decoded file finds no byte to read: what the decoder wrote is in
    // the page cache, the rest are holes, and each fault would zero-fill dozens of hole pages
    // around the one asked for (dwfl_core_file_report's reads: 29 of the 313 ms of CPU that the
    // corpus xz core's analysis took beside two fuzz processes, 11 of 271 ms idle, on the thread
    // that waits for it). libelf maps the whole
    // file, so `raw` starts a page; where it read the file into memory instead, madvise refuses
    // the unaligned address and there was no read-ahead to stop. Advice only: a failure costs
    // that time, nothing else.
    ::madvise(const_cast<char*>(raw), size, MADV_RANDOM);
  }

  // e_phnum PN_XNUM (0xffff) says the real count is section header 0's sh_info: without that
  // header libelf hands back 0xffff itself, and the notes after the table would be read as
  // program headers.
  constexpr std::uint16_t k_pn_xnum = 0xffff;
  const bool xnum = header.e_phnum == k_pn_xnum;
  if (xnum && (header.e_shoff == 0 || header.e_shoff > size || size - header.e_shoff < 64))
    return fail(who + ": e_phnum is PN_XNUM (the count is in section header 0), but section " +
                "header 0 is not in the file (e_shoff " + std::to_string(header.e_shoff) + ")");
  std::size_t phnum = 0;
  if (elf_getphdrnum(image.m_elf, &phnum) != 0)
    return fail(who + ": unreadable program headers: " + last_elf_error());
  // libelf cuts a count that does not fit down to what does, reading whatever follows as program
  // headers: the count as written is compared instead.
  if (xnum) {
    std::uint32_t claimed = 0;
    std::memcpy(&claimed, raw + header.e_shoff + offsetof(Elf64_Shdr, sh_info), sizeof claimed);
    phnum = claimed;
  }
  const std::uint64_t room =
      header.e_phoff < size ? (size - header.e_phoff) / sizeof(Elf64_Phdr) : 0;
  if (phnum > room)
    return fail(who + ": the program header table claims " + std::to_string(phnum) + " entries" +
                (xnum ? " (PN_XNUM: from section header 0)" : "") + " at offset " +
                std::to_string(header.e_phoff) + ", but the file has room for " +
                std::to_string(room));
  std::uint64_t previous = 0;
  std::uint64_t first_load_data = UINT64_MAX;
  std::uint64_t first_note = UINT64_MAX;
  for (std::size_t i = 0; i < phnum; ++i) {
    GElf_Phdr phdr;
    if (!gelf_getphdr(image.m_elf, static_cast<int>(i), &phdr)) break;  // cut inside the table
    if (phdr.p_type == k_pt_note) first_note = std::min<std::uint64_t>(first_note, phdr.p_offset);
    if (phdr.p_type != k_pt_load) continue;
    if (phdr.p_vaddr < previous) image.m_segments_were_sorted = false;
    previous = phdr.p_vaddr;
    if (phdr.p_filesz > 0)
      first_load_data = std::min<std::uint64_t>(first_load_data, phdr.p_offset);
    // A segment claiming more file bytes than memory is corrupt: keep what memory can hold.
    image.m_segments.push_back({.type = phdr.p_type,
                                .flags = phdr.p_flags,
                                .offset = phdr.p_offset,
                                .vaddr = phdr.p_vaddr,
                                .filesz = std::min(phdr.p_filesz, phdr.p_memsz),
                                .memsz = phdr.p_memsz,
                                .align = phdr.p_align});
  }
  image.m_notes_before_data = first_note < first_load_data;
  std::sort(image.m_segments.begin(), image.m_segments.end(),
            [](const Segment& a, const Segment& b) { return a.vaddr < b.vaddr; });
  image.parse_notes();
  return image;
}

CoreImage::CoreImage(CoreImage&& other) noexcept { *this = std::move(other); }

CoreImage& CoreImage::operator=(CoreImage&& other) noexcept {
  if (this != &other) {
    m_guard.reset();
    if (m_elf) elf_end(m_elf);
    m_guard = std::move(other.m_guard);
    m_fd = std::move(other.m_fd);
    m_elf = std::exchange(other.m_elf, nullptr);
    m_file = other.m_file;
    m_segments = std::move(other.m_segments);
    m_notes = std::move(other.m_notes);
    m_segments_were_sorted = other.m_segments_were_sorted;
    m_notes_before_data = other.m_notes_before_data;
  }
  return *this;
}

CoreImage::~CoreImage() {
  m_guard.reset();  // before libelf unmaps what it guards
  if (m_elf) elf_end(m_elf);
}

// libdwfl reads only NT_AUXV and NT_FILE of these, and exposes none: we walk the notes in
// libelf's mapping of the file ourselves (core-dumps.md 0.1).
void CoreImage::parse_notes() {
  std::size_t phnum = 0;
  elf_getphdrnum(m_elf, &phnum);
  bool first = true;
  for (std::size_t i = 0; i < phnum; ++i) {
    GElf_Phdr phdr;
    if (!gelf_getphdr(m_elf, static_cast<int>(i), &phdr) || phdr.p_type != k_pt_note) continue;
    if (phdr.p_offset >= m_file.size()) {
      m_notes.problems.push_back("the notes are past the end of the file (truncated core)");
      continue;
    }
    const std::uint64_t available =
        std::min<std::uint64_t>(phdr.p_filesz, m_file.size() - phdr.p_offset);
    const ByteView area(m_file.subspan(phdr.p_offset, available));
    const std::uint64_t walked = for_each_note(area, phdr.p_align, [&](const Note& note) {
      const bool core_owner = note.owned_by("CORE");
      if (first) m_notes.prstatus_first = core_owner && note.type == k_nt_prstatus;
      first = false;
      if (core_owner) parse_note(note.type, note.desc);
      return true;
    });
    if (walked < area.size() || available < phdr.p_filesz)
      m_notes.problems.push_back("the notes are cut short after " + std::to_string(walked) +
                                 " of " + std::to_string(phdr.p_filesz) + " bytes");
  }
}

void CoreImage::parse_note(std::uint32_t type, const ByteView& desc) {
  switch (type) {
    case k_nt_prstatus:
      if (desc.has(112, 27 * 8))
        m_notes.threads.push_back(parse_prstatus(desc));
      else
        m_notes.problems.push_back("an NT_PRSTATUS note is too short");
      break;
    case k_nt_prpsinfo:
      // struct elf_prpsinfo: pr_pid 24, pr_fname[16] at 40, pr_psargs[80] at 56. A short note is
      // reported, not read as pid 0 and empty names.
      if (!desc.has(0, 136)) {
        m_notes.problems.push_back("an NT_PRPSINFO note is too short");
        break;
      }
      m_notes.has_prpsinfo = true;
      m_notes.pid = desc.read<std::int32_t>(24);
      m_notes.fname = fixed_text(desc, 40, 16);
      m_notes.psargs = fixed_text(desc, 56, 80);
      while (!m_notes.psargs.empty() && m_notes.psargs.back() == ' ') m_notes.psargs.pop_back();
      break;
    case k_nt_siginfo:
      // A cut siginfo must not read as signal 0 sent by a process (si_code 0 is SI_USER).
      if (!desc.has(0, k_siginfo_header_size))
        m_notes.problems.push_back("an NT_SIGINFO note is too short");
      else if (!m_notes.signal)
        m_notes.signal = parse_siginfo(desc);
      break;
    case k_nt_auxv:
      m_notes.auxv_bytes = desc.bytes();
      for (std::size_t at = 0; desc.has(at, 16); at += 16) {
        const auto type = desc.u64(at);
        if (type == k_at_null) break;
        m_notes.auxv.emplace_back(type, desc.u64(at + 8));
      }
      break;
    case k_nt_file: {
      std::string problem;
      m_notes.files = parse_file_note(desc, problem);
      if (!problem.empty()) m_notes.problems.push_back(problem);
      break;
    }
    default:
      break;
  }
}

std::uint64_t CoreImage::dumped_bytes() const {
  std::uint64_t total = 0;
  for (const Segment& segment : m_segments) total += segment.filesz;
  return total;
}

std::uint64_t CoreImage::missing_bytes() const {
  std::uint64_t missing = 0;
  for (const Segment& segment : m_segments) {
    if (segment.filesz == 0) continue;
    if (segment.offset >= m_file.size())
      missing += segment.filesz;
    else if (segment.filesz > m_file.size() - segment.offset)
      missing += segment.filesz - (m_file.size() - segment.offset);
  }
  return missing;
}

const Segment* CoreImage::segment_at(std::uint64_t va) const {
  auto after =
      std::upper_bound(m_segments.begin(), m_segments.end(), va,
                       [](std::uint64_t address, const Segment& s) { return address < s.vaddr; });
  if (after == m_segments.begin()) return nullptr;
  const Segment& candidate = *std::prev(after);
  return candidate.contains(va) ? &candidate : nullptr;
}

bool CoreImage::executable(std::uint64_t va) const {
  const Segment* segment = segment_at(va);
  return segment && (segment->flags & k_pf_x);
}

std::span<const std::byte> CoreImage::bytes_from(std::uint64_t va) const {
  const Segment* segment = segment_at(va);
  if (!segment) return {};
  const std::uint64_t rel = va - segment->vaddr;
  if (rel >= segment->filesz || segment->offset >= m_file.size()) return {};
  const std::uint64_t in_file = std::min(segment->filesz, m_file.size() - segment->offset);
  if (rel >= in_file) return {};
  return m_file.subspan(segment->offset + rel, in_file - rel);
}

std::size_t CoreImage::read(std::uint64_t va, std::span<std::byte> out) const {
  std::size_t done = 0;
  // Loop: a read may span adjacent segments (a string crossing a VMA boundary).
  while (done < out.size()) {
    const auto bytes = bytes_from(va + done);
    if (bytes.empty()) break;
    const std::size_t count = std::min(bytes.size(), out.size() - done);
    std::memcpy(out.data() + done, bytes.data(), count);
    done += count;
  }
  return done;
}

std::optional<std::uint64_t> CoreImage::read_u64(std::uint64_t va) const {
  std::uint64_t value = 0;
  if (read(va, std::as_writable_bytes(std::span(&value, 1))) != sizeof value) return std::nullopt;
  return value;
}

std::optional<std::string> CoreImage::read_string(std::uint64_t va, std::size_t max) const {
  std::string text;
  while (text.size() < max) {
    const auto bytes = bytes_from(va + text.size());
    if (bytes.empty()) return std::nullopt;
    const std::size_t scan = std::min(bytes.size(), max - text.size());
    const char* begin = reinterpret_cast<const char*>(bytes.data());
    const std::size_t length = strnlen(begin, scan);
    text.append(begin, length);
    if (length < scan) return text;
  }
  return std::nullopt;
}

}  // namespace aoti::parsers::coredump
