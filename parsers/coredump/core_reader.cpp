#include "parsers/coredump/core_reader.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <set>

#include "parsers/coredump/core_image.hpp"
#include "parsers/coredump/decompress.hpp"
#include "parsers/coredump/fault.hpp"
#include "parsers/coredump/unwind.hpp"
#include "parsers/elf/notes.hpp"
#include "parsers/elf/types.hpp"
#include "util/byte_reader.hpp"
#include "util/expected.hpp"
#include "util/fd.hpp"
#include "util/format_size.hpp"
#include "util/hex.hpp"

namespace aoti::parsers::coredump {

namespace {

using aoti::model::CoreFacts;
using aoti::model::MappedModule;

constexpr std::size_t k_max_string = 128 << 10;  // one argv or environment string
constexpr std::size_t k_max_vector = 1 << 16;    // argv / envp entries
constexpr std::string_view k_deleted = " (deleted)";

// Linux x86-64 numbers: the core's process, not this machine, defines them.
std::string signal_name(int signo) {
  static constexpr const char* k_names[] = {
      "",          "SIGHUP",  "SIGINT",    "SIGQUIT", "SIGILL",   "SIGTRAP", "SIGABRT", "SIGBUS",
      "SIGFPE",    "SIGKILL", "SIGUSR1",   "SIGSEGV", "SIGUSR2",  "SIGPIPE", "SIGALRM", "SIGTERM",
      "SIGSTKFLT", "SIGCHLD", "SIGCONT",   "SIGSTOP", "SIGTSTP",  "SIGTTIN", "SIGTTOU", "SIGURG",
      "SIGXCPU",   "SIGXFSZ", "SIGVTALRM", "SIGPROF", "SIGWINCH", "SIGIO",   "SIGPWR",  "SIGSYS"};
  if (signo > 0 && signo < static_cast<int>(std::size(k_names))) return k_names[signo];
  return signo > 0 ? "signal " + std::to_string(signo) : "";
}

std::string signal_code_name(int signo, int code) {
  switch (code) {  // codes a process sends, the same for every signal
    case 0:
      return "SI_USER";
    case 0x80:
      return "SI_KERNEL";
    case -1:
      return "SI_QUEUE";
    case -2:
      return "SI_TIMER";
    case -3:
      return "SI_MESGQ";
    case -4:
      return "SI_ASYNCIO";
    case -5:
      return "SI_SIGIO";
    case -6:
      return "SI_TKILL";
    default:
      break;
  }
  auto pick = [code](std::initializer_list<const char*> names) -> std::string {
    if (code >= 1 && code <= static_cast<int>(names.size())) return *(names.begin() + code - 1);
    return "code " + std::to_string(code);
  };
  switch (signo) {
    case 11:
      return pick({"SEGV_MAPERR", "SEGV_ACCERR", "SEGV_BNDERR", "SEGV_PKUERR", "SEGV_ACCADI",
                   "SEGV_ADIDERR", "SEGV_ADIPERR", "SEGV_MTEAERR", "SEGV_MTESERR", "SEGV_CPERR"});
    case 7:
      return pick({"BUS_ADRALN", "BUS_ADRERR", "BUS_OBJERR", "BUS_MCEERR_AR", "BUS_MCEERR_AO"});
    case 4:
      return pick({"ILL_ILLOPC", "ILL_ILLOPN", "ILL_ILLADR", "ILL_ILLTRP", "ILL_PRVOPC",
                   "ILL_PRVREG", "ILL_COPROC", "ILL_BADSTK", "ILL_BADIADDR"});
    case 8:
      return pick({"FPE_INTDIV", "FPE_INTOVF", "FPE_FLTDIV", "FPE_FLTOVF", "FPE_FLTUND",
                   "FPE_FLTRES", "FPE_FLTINV", "FPE_FLTSUB", "FPE_FLTUNK", "FPE_CONDTRAP"});
    case 5:
      return pick(
          {"TRAP_BRKPT", "TRAP_TRACE", "TRAP_BRANCH", "TRAP_HWBKPT", "TRAP_UNK", "TRAP_PERF"});
    default:
      return "code " + std::to_string(code);
  }
}

struct OpenedCore {
  CoreImage image;
  Compression compression = Compression::none;
  std::vector<std::string> health;
};

Parsed<OpenedCore> open_core(OpenedDump opened, const std::string& display) {
  if (!opened.one_thread_reason.empty()) {
    const std::string format(to_string(opened.compression));
    opened.health.push_back(
        "the " + format + " core was inflated whole, on one thread, before it could be read: " +
        opened.one_thread_reason +
        (opened.compression == Compression::xz
             ? " (a core recompressed with xz's --block-size option, 4MiB say, decodes in "
               "parallel)"
             : ""));
  }
  const CoreImage::Source source = opened.compression == Compression::none
                                       ? CoreImage::Source::dump
                                       : CoreImage::Source::decoded;
  TRY_ASSIGN(CoreImage image, CoreImage::open(std::move(opened.file), display, source));
  return OpenedCore{std::move(image), opened.compression, std::move(opened.health)};
}

// The GNU build-id of the ELF image mapped at `base`, from the first page the kernel dumps
// (coredump_filter bit 4). The bytes are process memory, not a file, so this walks the
// header, program headers and note by hand, every read bounded by what the core holds.
std::string build_id_in_memory(const CoreImage& image, std::uint64_t base) {
  std::array<std::byte, elf::k_ehdr_size> header_bytes;
  if (image.read(base, header_bytes) != header_bytes.size()) return {};
  const util::ByteView header(header_bytes);
  const std::uint64_t phnum = header.u16(56);
  if (header.text(0, 4) !=
          "\x7f"
          "ELF" ||
      header.u8(4) != elf::k_elf_class_64 || header.u16(54) != elf::k_phdr_size || phnum > 256)
    return {};
  std::vector<std::byte> table_bytes(phnum * elf::k_phdr_size);
  if (image.read(base + header.u64(32), table_bytes) != table_bytes.size()) return {};
  const util::ByteView table(table_bytes);
  std::vector<elf::Segment> segments;
  for (std::uint64_t i = 0; i < phnum; ++i)
    segments.push_back(elf::read_program_header(table, i * elf::k_phdr_size));
  std::uint64_t first_load = UINT64_MAX;
  for (const elf::Segment& segment : segments)
    if (segment.type == elf::k_pt_load)
      first_load = std::min<std::uint64_t>(first_load, segment.vaddr & ~0xfffull);
  if (first_load == UINT64_MAX) return {};
  const std::uint64_t bias = base - first_load;  // 0 for ET_EXEC, the load address for ET_DYN
  std::string build_id;
  for (const elf::Segment& segment : segments) {
    if (segment.type != elf::k_pt_note) continue;
    std::vector<std::byte> notes(std::min<std::uint64_t>(segment.filesz, 4096));
    notes.resize(image.read(bias + segment.vaddr, notes));
    elf::for_each_note(util::ByteView(notes), segment.align, [&](const elf::Note& note) {
      if (note.type != elf::k_nt_gnu_build_id || !note.owned_by("GNU")) return true;
      build_id = util::hex_bytes(note.desc.bytes());
      return false;
    });
    if (!build_id.empty()) break;
  }
  return build_id;
}

// One module per run of NT_FILE entries of the same file (a .so shows as 4-5 mappings).
std::vector<MappedModule> modules_from(const CoreImage& image,
                                       const std::vector<ModelObject>& models) {
  std::vector<MappedModule> modules;
  if (!image.notes().files) return modules;
  for (const FileMapping& mapping : *image.notes().files) {
    std::string path = mapping.path;
    const bool deleted = path.ends_with(k_deleted);
    if (deleted) path.resize(path.size() - k_deleted.size());
    if (!modules.empty() && modules.back().path == path && modules.back().end <= mapping.start &&
        mapping.file_offset != 0) {
      modules.back().end = mapping.end;
      continue;
    }
    MappedModule module;
    module.path = std::move(path);
    module.deleted = deleted;
    module.start = mapping.start;
    module.end = mapping.end;
    module.file_offset = mapping.file_offset;
    modules.push_back(std::move(module));
  }
  std::sort(modules.begin(), modules.end(),
            [](const MappedModule& a, const MappedModule& b) { return a.start < b.start; });
  for (MappedModule& module : modules) {
    if (module.file_offset == 0) module.build_id = build_id_in_memory(image, module.start);
    for (const ModelObject& model : models)
      if (!module.build_id.empty() && model.build_id == module.build_id)
        module.package = model.package;
  }
  return modules;
}

// argv and the environment from the initial stack (core-dumps.md 1.10): find the copy of
// NT_AUXV in the stack segment that holds AT_EXECFN; before it lie envp[], NULL, argv[],
// NULL and argc, which must count the argv pointers.
void read_process_strings(const CoreImage& image, CoreFacts& facts) {
  const CoreNotes& notes = image.notes();
  const auto execfn = notes.auxv_value(elf::k_at_execfn);
  if (!execfn || notes.auxv_bytes.size() < 32) return;
  if (auto path = image.read_string(*execfn, 4096)) facts.executable = *path;
  // The stack VMA can be split (here: the top 8 KiB apart from the rest), so search the
  // segment holding AT_EXECFN and the adjacent ones below it.
  const Segment* top = image.segment_at(*execfn);
  if (!top) return;
  std::uint64_t stack_begin = top->vaddr;
  std::optional<std::uint64_t> auxv_at;
  for (const Segment* segment = top; segment && !auxv_at;
       segment = image.segment_at(segment->vaddr - 1)) {
    stack_begin = segment->vaddr;
    const auto bytes = image.bytes_from(segment->vaddr);
    const auto found = std::search(bytes.begin(), bytes.end(), notes.auxv_bytes.begin(),
                                   notes.auxv_bytes.begin() + 32);
    if (found != bytes.end())
      auxv_at = segment->vaddr + static_cast<std::uint64_t>(found - bytes.begin());
  }
  if (!auxv_at) return;
  const std::uint64_t stack_end = top->end();
  auto word = [&](std::uint64_t va) { return image.read_u64(va); };
  auto on_stack = [&](std::uint64_t pointer) {
    return pointer >= stack_begin && pointer < stack_end;
  };
  if (*auxv_at % 8 != 0 || word(*auxv_at - 8) != std::uint64_t{0}) return;
  std::uint64_t env_begin = *auxv_at - 8;  // at envp's NULL
  while (env_begin - 8 >= stack_begin) {
    const auto value = word(env_begin - 8);
    if (!value || *value == 0 || !on_stack(*value)) break;
    env_begin -= 8;
  }
  const std::uint64_t argv_null = env_begin - 8;
  if (word(argv_null) != std::uint64_t{0}) return;
  std::uint64_t argc = 0;
  for (; argc < k_max_vector; ++argc) {
    const auto value = word(argv_null - 8 * (argc + 1));
    if (!value) return;
    if (*value == argc) break;  // argc, counting the pointers after it
    if (!on_stack(*value)) return;
  }
  for (std::uint64_t i = 0; i < argc; ++i)
    if (auto pointer = word(argv_null - 8 * (argc - i)))
      facts.argv.push_back(image.read_string(*pointer, k_max_string).value_or(""));
  for (std::uint64_t at = env_begin; at < *auxv_at - 8; at += 8) {
    const auto pointer = word(at);
    const auto text = pointer ? image.read_string(*pointer, k_max_string) : std::nullopt;
    if (!text) continue;
    const auto equals = text->find('=');
    if (equals == std::string::npos)
      facts.environment.emplace(*text, "");
    else
      facts.environment.emplace(text->substr(0, equals), text->substr(equals + 1));
  }
}

void check_health(const OpenedCore& opened, const std::vector<ModelObject>& models,
                  CoreFacts& facts) {
  const CoreImage& image = opened.image;
  const CoreNotes& notes = image.notes();
  facts.health = opened.health;
  const std::uint64_t missing = image.missing_bytes();
  facts.truncated = missing > 0;
  if (facts.truncated) {
    const std::uint64_t dumped = std::max<std::uint64_t>(image.dumped_bytes(), 1);
    facts.health.push_back("truncated: the core is " + util::format_mib(image.file_size()) +
                           " but its segments need " +
                           util::format_mib(image.file_size() + missing) + "; " +
                           std::to_string(missing * 100 / dumped) +
                           "% of the dumped memory is missing (the main thread's stack, highest in "
                           "memory, goes first)");
  }
  for (const std::string& problem : notes.problems) facts.health.push_back(problem);
  facts.has_file_note = notes.files.has_value();
  if (!facts.has_file_note)
    facts.health.push_back(
        "no NT_FILE note: no module paths (the kernel leaves it out above its size limit); modules "
        "only from ELF headers found in memory");
  facts.kernel_written = image.notes_before_data() && notes.prstatus_first;
  if (!facts.kernel_written)
    facts.health.push_back(
        "not written by the kernel (gdb gcore or another dumper): the first thread is the one the "
        "dumper chose, not necessarily the one that crashed");
  if (!image.segments_were_sorted())
    facts.health.push_back("the memory segments are not in address order (kernel.core_sort_vma)");
  if (!notes.has_prpsinfo)
    facts.health.push_back("no NT_PRPSINFO note: libdwfl cannot attach to the threads");
  if (notes.threads.empty()) facts.health.push_back("no NT_PRSTATUS note: no thread registers");
  std::set<std::string> packages;
  for (const ModelObject& model : models) packages.insert(model.package);
  for (const std::string& package : packages) {
    const bool mapped =
        std::any_of(facts.modules.begin(), facts.modules.end(),
                    [&](const MappedModule& module) { return module.package == package; });
    if (mapped) continue;
    std::string ids;
    for (const ModelObject& model : models)
      if (model.package == package) ids += (ids.empty() ? "" : ", ") + model.build_id;
    const bool bare = std::any_of(models.begin(), models.end(), [&](const ModelObject& model) {
      return model.package == package && model.entry.empty();
    });
    facts.health.push_back("no module of the core has the build-id of " +
                           (bare ? "the model .so " + package : package + "'s model .so") + " (" +
                           ids + "): this process did not load that " +
                           (bare ? "model" : "package") + " (or loaded another build of it)");
  }
}

}  // namespace

Parsed<OpenedDump> open_core_dump(const std::filesystem::path& path, const std::string& display,
                                  const CoreReadOptions& options) {
  return open_dump(path, display, "core", options.decoding);
}

Parsed<CoreFacts> read_core(const std::filesystem::path& path, const std::string& display,
                            const std::vector<ModelObject>& models,
                            const CoreReadOptions& options) {
  return read_core(open_core_dump(path, display, options), display, models);
}

Parsed<CoreFacts> read_core(Parsed<OpenedDump> dump, const std::string& display,
                            const std::vector<ModelObject>& models) {
  TRY_ASSIGN(OpenedDump opened_dump, std::move(dump));
  TRY_ASSIGN(const OpenedCore opened, open_core(std::move(opened_dump), display));
  const CoreImage& image = opened.image;
  const CoreNotes& notes = image.notes();
  if (notes.threads.empty() && !notes.has_prpsinfo && !notes.signal)
    return fail(display +
                ": an x86-64 core without readable notes (no threads, no process, no signal)" +
                (notes.problems.empty() ? std::string() : ": " + notes.problems.front()));

  CoreFacts facts;
  facts.artifact = display;
  facts.compression = std::string(to_string(opened.compression));
  facts.pid =
      notes.has_prpsinfo ? notes.pid : (notes.threads.empty() ? 0 : notes.threads.front().tid);
  facts.process_name = notes.fname;
  facts.command_line = notes.psargs;
  if (notes.signal) {
    facts.signal = notes.signal->signo;
    facts.signal_code = notes.signal->code;
    facts.signal_code_name = signal_code_name(notes.signal->signo, notes.signal->code);
    // A general protection fault reports no address: its si_addr 0 is not a null pointer.
    if (!is_general_protection(notes.signal->signo, notes.signal->code))
      facts.fault_address = notes.signal->address;
    facts.sender_pid = notes.signal->sender_pid;
  } else if (!notes.threads.empty()) {
    facts.signal = notes.threads.front().cursig;
  }
  facts.signal_name = signal_name(facts.signal);
  facts.modules = modules_from(image, models);
  read_process_strings(image, facts);
  if (facts.executable.empty()) {
    const auto entry = notes.auxv_value(elf::k_at_entry);
    for (const MappedModule& module : facts.modules)
      if (entry && *entry >= module.start && *entry < module.end) facts.executable = module.path;
  }
  if (facts.executable.empty()) facts.executable = notes.fname;
  check_health(opened, models, facts);
  facts.threads = unwind_threads(image, facts.modules, models, facts.health);
  if (!facts.threads.empty()) facts.threads.front().crashed = facts.kernel_written;
  FaultPlace place = describe_fault(image, facts);
  facts.fault_kind = std::move(place.kind);
  facts.fault_region = std::move(place.text);
  if (image.cut_while_read()) return fail(display + ": " + std::string(k_cut_while_read));
  return facts;
}

bool looks_like_core(std::string_view head) {
  auto is_core = [](std::string_view bytes) {
    // e_ident, then e_type (little-endian ET_CORE = 4) at offset 16.
    return bytes.size() >= 18 &&
           bytes.substr(0, 4) ==
               "\x7f"
               "ELF" &&
           bytes[16] == elf::k_et_core && bytes[17] == 0;
  };
  return is_core(plain_head(head, 64));
}

}  // namespace aoti::parsers::coredump
