// An ELF x86-64 core read in place: libelf maps the file (ELF_C_READ_MMAP), and every read of
// the process's memory goes through segments() with the rules of a real core: bytes past a
// segment's p_filesz were not dumped, and bytes past the end of a truncated file are gone.
// Neither reads as zeros.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <libelf.h>

#include "parsers/elf/types.hpp"
#include "parsers/parse_error.hpp"
#include "util/byte_reader.hpp"
#include "util/fd.hpp"
#include "util/mapping_guard.hpp"

namespace aoti::parsers::coredump {

// The core's memory map is its PT_LOAD program headers.
using elf::Segment;

// One NT_PRSTATUS: a thread and its registers (user_regs_struct order, see core-dumps.md 1.3).
struct ThreadNote {
  int tid = 0;
  int cursig = 0;
  std::array<std::uint64_t, 27> regs{};

  std::uint64_t pc() const { return regs[16]; }
  std::uint64_t sp() const { return regs[19]; }
  std::int64_t orig_rax() const { return static_cast<std::int64_t>(regs[15]); }
};

struct FileMapping {
  std::uint64_t start = 0;
  std::uint64_t end = 0;
  std::uint64_t file_offset = 0;  // bytes (NT_FILE stores pages)
  std::string path;               // as written, " (deleted)" included
};

struct SignalNote {
  int signo = 0;
  int code = 0;
  int error = 0;
  std::optional<std::uint64_t> address;  // si_addr, for signals the kernel raised on a fault
  std::optional<int> sender_pid;         // si_pid, for kill / tkill
};

struct CoreNotes {
  std::vector<ThreadNote> threads;  // note order: in kernel cores the crashing thread first
  int pid = 0;                      // NT_PRPSINFO
  std::string fname;
  std::string psargs;
  bool has_prpsinfo = false;
  std::optional<SignalNote> signal;  // NT_SIGINFO (the first one: gdb writes one per thread)
  std::vector<std::pair<std::uint64_t, std::uint64_t>> auxv;
  std::span<const std::byte> auxv_bytes;          // the raw note, to find its copy on the stack
  std::optional<std::vector<FileMapping>> files;  // nullopt: no NT_FILE
  std::vector<std::string> problems;              // malformed or cut notes
  bool prstatus_first = false;  // the kernel writes NT_PRSTATUS first, gdb NT_PRPSINFO

  // The value of auxiliary vector entry `type` (AT_*), when the core's NT_AUXV has one.
  std::optional<std::uint64_t> auxv_value(std::uint64_t type) const {
    for (const auto& [key, value] : auxv)
      if (key == type) return value;
    return std::nullopt;
  }
};

class CoreImage {
 public:
  // Where the file's bytes come from: the dump itself, or a private file a compressed dump was
  // decoded into (every byte written already in the page cache, the rest holes).
  enum class Source { dump, decoded };
  // Takes the file; fails when it is not an ELF x86-64 core.
  static Parsed<CoreImage> open(util::Fd file, std::string_view name, Source source);

  CoreImage(CoreImage&&) noexcept;
  CoreImage& operator=(CoreImage&&) noexcept;
  ~CoreImage();

  Elf* elf() const { return m_elf; }
  std::uint64_t file_size() const { return m_file.size(); }
  const std::vector<Segment>& segments() const { return m_segments; }  // sorted by address
  const CoreNotes& notes() const { return m_notes; }
  bool segments_were_sorted() const { return m_segments_were_sorted; }
  bool notes_before_data() const { return m_notes_before_data; }
  std::uint64_t dumped_bytes() const;   // sum of p_filesz
  std::uint64_t missing_bytes() const;  // of those, past the end of the file

  const Segment* segment_at(std::uint64_t va) const;
  bool executable(std::uint64_t va) const;
  // Copies the bytes at `va` that the core holds, stopping at the first missing byte; returns
  // how many were copied.
  std::size_t read(std::uint64_t va, std::span<std::byte> out) const;
  std::optional<std::uint64_t> read_u64(std::uint64_t va) const;
  // A NUL-terminated string of at most `max` bytes; nullopt when it is not all in the core.
  std::optional<std::string> read_string(std::uint64_t va, std::size_t max) const;
  // The dumped bytes of the segment holding `va`, from `va` on (empty when none).
  std::span<const std::byte> bytes_from(std::uint64_t va) const;
  // Whether the file shrank while it was read (util/mapping_guard.hpp): what lay past its new
  // end read as zeros, and nothing read from the core can be trusted.
  bool cut_while_read() const { return m_guard && m_guard->cut(); }

 private:
  CoreImage() = default;
  void parse_notes();
  void parse_note(std::uint32_t type, const util::ByteView& desc);

  util::Fd m_fd;
  Elf* m_elf = nullptr;
  std::span<const std::byte> m_file;            // libelf's mapping of the whole file
  std::unique_ptr<util::MappingGuard> m_guard;  // of m_file
  std::vector<Segment> m_segments;
  CoreNotes m_notes;
  bool m_segments_were_sorted = true;
  bool m_notes_before_data = true;
};

}  // namespace aoti::parsers::coredump
