#include "parsers/coredump/unwind.hpp"

#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>

#include "parsers/coredump/link_map.hpp"
#include "parsers/coredump/private_file.hpp"
#include "parsers/elf/types.hpp"
#include "parsers/limits.hpp"
#include "parsers/zip/zip_archive.hpp"
#include "util/byte_reader.hpp"
#include "util/demangle.hpp"
#include "util/errno_text.hpp"
#include "util/expected.hpp"
#include "util/fd.hpp"
#include "util/hex.hpp"
#include "util/open_file.hpp"

namespace aoti::parsers::coredump {

namespace {

// libdwfl's last error; elfutils 0.188 returns NULL for -1 when no error code was set, despite
// its header, and a NULL into std::string crashes.
std::string last_dwfl_error() {
  const char* message = dwfl_errmsg(-1);
  return message ? message : "unknown libdwfl error";
}

using aoti::model::CoreThread;
using aoti::model::MappedModule;
using aoti::model::StackFrame;

constexpr std::size_t k_max_frames = 256;         // as eu-stack
constexpr std::uint64_t k_scan_bytes = 64 << 10;  // stack scanned past the last good frame
constexpr std::size_t k_scan_frames = 64;
constexpr unsigned k_dwarf_rsp = 7;
constexpr std::string_view k_deleted = " (deleted)";

std::string strip_deleted(std::string path) {
  if (path.ends_with(k_deleted)) path.resize(path.size() - k_deleted.size());
  return path;
}

// "_ZN5torch...@@GLIBCXX_3.4" -> "torch::..."; names that are not mangled pass unchanged.
std::string demangle(std::string name) {
  if (const auto at = name.find('@'); at != std::string::npos && at > 0) name.resize(at);
  return util::demangle(name);
}

// The bytes before a return address hold the call that pushed it: e8 rel32, or ff /2 (an
// indirect call through a register or memory, with optional REX, ModRM, SIB, displacement:
// 2 to 7 bytes). A loose check — it rejects most stale data pointers into text, not all.
bool looks_like_call_before(const unsigned char* bytes /* the 7 bytes before the address */) {
  if (bytes[2] == 0xe8) return true;
  for (int length = 2; length <= 7; ++length) {
    const unsigned char opcode = bytes[7 - length];
    const unsigned char modrm = bytes[7 - length + 1];
    if (opcode == 0xff && ((modrm >> 3) & 7) == 2) return true;
  }
  return false;
}

// Keeps the first error a callback hit; never throws (it runs inside noexcept callbacks).
void keep_error(std::string& error, const char* what) noexcept {
  try {
    if (error.empty()) error = std::string("internal error: ") + what;
  } catch (...) {
    // Out of memory: the failure code the callback returns still stops libdwfl.
  }
}

// libdwfl calls back into C++ from C frames, which an exception must not unwind through: every
// callback runs its body through this, which turns an exception into `failed` (the callback's
// "not found" or "stop") and keeps what was thrown in `error`.
template <class Body>
int without_exceptions(std::string& error, int failed, Body&& body) noexcept {
  try {
    return body();
  } catch (const std::exception& exception) {
    keep_error(error, exception.what());
  } catch (...) {
    keep_error(error, "unknown exception");
  }
  return failed;
}

class Session;
// libdwfl 0.188 has no per-session user data for its callbacks: the session that is
// unwinding in this thread is reached through this pointer while it runs.
thread_local Session* t_session = nullptr;

int find_elf(Dwfl_Module* module, void**, const char* name, Dwarf_Addr, char** file_name,
             Elf** elf) noexcept;

// Symbols come from the served files themselves; no separate debuginfo is looked up (and
// never through debuginfod: the analysis is offline).
int find_no_debuginfo(Dwfl_Module*, void**, const char*, Dwarf_Addr, const char*, const char*,
                      GElf_Word, char**) noexcept {
  return -1;
}

const Dwfl_Callbacks k_callbacks = {find_elf, find_no_debuginfo, nullptr, nullptr};

class Session {
 public:
  Session(const CoreImage& image, std::vector<MappedModule>& modules,
          const std::vector<ModelObject>& models, std::vector<std::string>& health)
      : m_image(image), m_modules(modules), m_models(models), m_health(health) {}
  ~Session() {
    if (m_dwfl) dwfl_end(m_dwfl);
    t_session = nullptr;
  }

  std::vector<CoreThread> run() {
    t_session = this;
    std::vector<CoreThread> threads;
    for (const ThreadNote& note : m_image.notes().threads) {
      CoreThread thread;
      thread.tid = note.tid;
      threads.push_back(std::move(thread));
    }
    // libdwfl's thread walk takes a thread id of 0 for its end and fails on a negative one, and
    // then leaks its walk state (elfutils 0.188): a forged NT_PRSTATUS must not get there.
    const bool ids_walkable = std::all_of(threads.begin(), threads.end(),
                                          [](const CoreThread& thread) { return thread.tid > 0; });
    if (!ids_walkable) m_attach_error = "a thread's id in the core is 0 or negative";
    if (!threads.empty() && ids_walkable && attach()) {
      struct Walk {
        Session* session;
        std::vector<CoreThread>* threads;
      } walk{this, &threads};
      dwfl_getthreads(
          m_dwfl,
          [](Dwfl_Thread* dwfl_thread, void* arg) noexcept -> int {
            auto* walk = static_cast<Walk*>(arg);
            return without_exceptions(walk->session->m_callback_error, DWARF_CB_ABORT, [&] {
              const pid_t tid = dwfl_thread_tid(dwfl_thread);
              for (CoreThread& thread : *walk->threads)
                if (thread.tid == tid && thread.frames.empty()) {
                  walk->session->unwind(dwfl_thread, thread);
                  break;
                }
              return DWARF_CB_OK;
            });
          },
          &walk);
    }
    // Threads libdwfl could not walk: the registers' frame, then a scan.
    const auto& notes = m_image.notes().threads;
    for (std::size_t i = 0; i < threads.size(); ++i) {
      if (!threads[i].frames.empty()) continue;
      StackFrame frame = symbolize(notes[i].pc(), true);
      frame.method = "initial";
      threads[i].frames.push_back(std::move(frame));
      if (threads[i].unwind_error.empty())
        threads[i].unwind_error = "not unwound: " + m_attach_error;
      scan_stack(threads[i], notes[i].sp());
    }
    for (MappedModule& module : m_modules) {
      Dwfl_Module* dwfl_module = m_dwfl ? dwfl_addrmodule(m_dwfl, module.start) : nullptr;
      const char* main_file = nullptr;
      if (dwfl_module)
        dwfl_module_info(dwfl_module, nullptr, nullptr, nullptr, nullptr, nullptr, &main_file,
                         nullptr);
      if (main_file) module.symbols_from = main_file;
    }
    if (!m_callback_error.empty())
      m_health.push_back("unwinding was cut short by an " + m_callback_error);
    return threads;
  }

  std::string& callback_error() { return m_callback_error; }

  // find_elf: the model .so by build-id from its package, else the file at the module's path
  // on this machine when its build-id matches the core's.
  int serve(Dwfl_Module* module, const char* name, char** file_name) {
    const unsigned char* bits = nullptr;
    GElf_Addr vaddr = 0;
    const int length = dwfl_module_build_id(module, &bits, &vaddr);
    if (length <= 0) return -1;  // without a build-id nothing can be verified
    const std::string build_id = util::hex_bytes(bits, static_cast<std::size_t>(length));
    for (const ModelObject& model : m_models) {
      if (model.build_id != build_id) continue;
      const int fd = extracted(model);
      if (fd < 0) continue;
      *file_name = strdup(model.name().c_str());
      return ::dup(fd);  // libdwfl owns and closes what it gets
    }
    if (!name || name[0] != '/') return -1;
    const std::string path = strip_deleted(name);
    // The path comes from the core: a FIFO or a device there must not be opened (blocking).
    auto opened = util::open_regular_file(path);
    if (!opened) return -1;
    util::Fd fd = std::move(*opened);
    Elf* elf = elf_begin(fd.get(), ELF_C_READ_MMAP, nullptr);
    const void* id = nullptr;
    const ssize_t id_length = elf ? dwelf_elf_gnu_build_id(elf, &id) : -1;
    const bool same =
        id_length > 0 && util::hex_bytes(id, static_cast<std::size_t>(id_length)) == build_id;
    if (elf) elf_end(elf);
    if (!same) return -1;
    *file_name = strdup(path.c_str());
    return fd.release();
  }

 private:
  bool attach() {
    m_dwfl = dwfl_begin(&k_callbacks);
    if (!m_dwfl) {
      m_attach_error = std::string("libdwfl: ") + last_dwfl_error();
      return false;
    }
    dwfl_report_begin(m_dwfl);
    if (const std::string unsafe = non_regular_mapped_file(); !unsafe.empty())
      m_health.push_back("the core's " + unsafe +
                         " on this machine; libdwfl, which would open it, was not asked for the "
                         "modules (only model .so files are reported)");
    else if (dwfl_core_file_report(m_dwfl, m_image.elf(), nullptr) < 0)
      m_health.push_back(std::string("libdwfl could not find the modules in the core: ") +
                         last_dwfl_error());
    dwfl_report_end(m_dwfl, nullptr, nullptr);
    report_missing_models();
    if (dwfl_core_file_attach(m_dwfl, m_image.elf()) < 0) {
      m_attach_error = std::string("libdwfl cannot read the threads: ") + last_dwfl_error();
      m_health.push_back(m_attach_error +
                         " (only each thread's registers and a stack scan are shown)");
      return false;
    }
    return true;
  }

  // dwfl_core_file_report opens the file NT_FILE names for a mapping whose memory starts with an
  // ELF header, and every name in the dynamic linker's link map in the core's memory, with a plain
  // blocking open() and no callback asked first: a FIFO there would hang it, a device would be
  // opened. Only stat looks here (mapped devices without ELF, such as /dev/zero or /dev/nvidia0,
  // are never opened and do not count).
  std::string non_regular_mapped_file() const {
    const auto problem = [](const std::string& name) -> std::string {
      struct stat info{};
      if (name.empty() || ::stat(name.c_str(), &info) != 0 || S_ISREG(info.st_mode)) return {};
      return name.substr(0, 256) + ", " + util::file_type_text(info.st_mode) + ",";
    };
    for (const MappedModule& module : m_modules) {
      std::array<std::byte, 4> magic{};
      if (m_image.read(module.start, magic) != magic.size() || std::memcmp(magic.data(),
                                                                           "\x7f"
                                                                           "ELF",
                                                                           4) != 0)
        continue;
      for (const std::string& name :
           {module.path, module.path + (module.deleted ? std::string(k_deleted) : "")})
        if (std::string found = problem(name); !found.empty()) return "file note names " + found;
    }
    for (const std::string& name : link_map_names(m_image, m_modules))
      if (std::string found = problem(name); !found.empty()) return "link map names " + found;
    return {};
  }

  // A model .so that libdwfl did not report from the core's ELF headers (core-dumps.md 2.4):
  // report it from NT_FILE with the file from its package.
  void report_missing_models() {
    bool begun = false;
    for (MappedModule& module : m_modules) {
      if (module.package.empty() || module.file_offset != 0 ||
          dwfl_addrmodule(m_dwfl, module.start))
        continue;
      for (const ModelObject& model : m_models) {
        if (model.build_id != module.build_id) continue;
        const int fd = extracted(model);
        if (fd < 0) break;
        if (!begun) dwfl_report_begin_add(m_dwfl);
        begun = true;
        const std::string name = module.path + (module.deleted ? std::string(k_deleted) : "");
        if (!dwfl_report_elf(m_dwfl, name.c_str(), model.name().c_str(), ::dup(fd), module.start,
                             false))
          m_health.push_back("cannot report " + module.path + " to libdwfl: " + last_dwfl_error());
        break;
      }
    }
    if (begun) dwfl_report_end(m_dwfl, nullptr, nullptr);
  }

  // The model .so copied out of its package into a private file (a bare .so: opened as it is),
  // once, when libdwfl asks.
  int extracted(const ModelObject& model) {
    const std::string key = model.package + '\n' + model.entry;
    if (auto found = m_extracted.find(key); found != m_extracted.end()) return found->second.get();
    util::Fd& slot = m_extracted[key];
    auto copied = copy_entry(model);
    if (!copied) {
      m_health.push_back("cannot use the model .so from " + model.package + ": " +
                         copied.error().message);
      return -1;
    }
    slot = std::move(*copied);
    return slot.get();
  }

  static Parsed<util::Fd> copy_entry(const ModelObject& model) {
    if (model.entry.empty()) {
      auto fd = util::open_regular_file(model.package);
      if (!fd) return fail("cannot open it: " + fd.error());
      return std::move(*fd);
    }
    TRY_ASSIGN(const zip::ZipArchive archive, zip::ZipArchive::open(model.package));
    const zip::ZipEntry* entry = archive.find(model.entry);
    if (!entry) return fail("no entry " + model.entry);
    TRY_ASSIGN(util::Fd file, create_private_file());
    auto source = archive.open_stored(*entry);
    if (!source) {
      // A deflated .so (unusual): read it whole, bounded as the package reader bounds it.
      TRY_ASSIGN(const std::string bytes, archive.read(*entry, k_max_deflated_model_so));
      TRY(write_sparse(file.get(),
                       {reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()}));
      return file;
    }
    std::vector<std::byte> buffer(1 << 20);
    try {
      for (std::uint64_t at = 0; at < (*source)->size(); at += buffer.size()) {
        const std::size_t count = static_cast<std::size_t>(
            std::min<std::uint64_t>(buffer.size(), (*source)->size() - at));
        (*source)->read(at, {buffer.data(), count});
        TRY(write_sparse(file.get(),
                         {reinterpret_cast<const unsigned char*>(buffer.data()), count}));
      }
    } catch (const util::ReadError& error) {
      return fail(error.what());
    }
    TRY(finish_sparse(file.get(), (*source)->size()));
    return file;
  }

  void unwind(Dwfl_Thread* dwfl_thread, CoreThread& thread) {
    struct Walk {
      Session* session;
      CoreThread* thread;
      std::string next_method = "initial";
      std::optional<std::uint64_t> last_sp;
      std::string error;
    } walk{this, &thread, "initial", std::nullopt, {}};
    const int ret = dwfl_thread_getframes(
        dwfl_thread,
        [](Dwfl_Frame* state, void* arg) noexcept -> int {
          auto* walk = static_cast<Walk*>(arg);
          return without_exceptions(walk->error, DWARF_CB_ABORT, [&] {
            Dwarf_Addr pc = 0;
            bool activation = false;
            if (!dwfl_frame_pc(state, &pc, &activation)) {
              walk->error = last_dwfl_error();
              return DWARF_CB_ABORT;
            }
            if (walk->thread->frames.size() >= k_max_frames) {
              walk->error = "stopped after " + std::to_string(k_max_frames) + " frames";
              return DWARF_CB_ABORT;
            }
            const std::uint64_t lookup = activation ? pc : pc - 1;
            // Without CFI for a caller, libdwfl's frame-pointer fallback can produce garbage:
            // a "return address" outside executable memory ends the trusted part here.
            if (!walk->session->m_image.executable(lookup)) {
              walk->error = "the next return address (" + util::hex_literal(pc) +
                            ") is not in executable memory";
              return DWARF_CB_ABORT;
            }
            StackFrame frame = walk->session->symbolize(pc, activation);
            frame.method = walk->next_method;
            walk->thread->frames.push_back(std::move(frame));
            Dwarf_Word sp = 0;
            if (dwfl_frame_reg(state, k_dwarf_rsp, &sp) == 0) walk->last_sp = sp;
            walk->next_method = walk->session->has_cfi(lookup) ? "cfi" : "frame pointer";
            return DWARF_CB_OK;
          });
        },
        &walk);
    if (ret != 0 && walk.error.empty()) walk.error = last_dwfl_error();
    if (ret == 0 || thread.frames.size() >= k_max_frames) return;
    thread.unwind_error = walk.error.empty() ? "unwinding failed" : walk.error;
    if (!thread.frames.empty())
      thread.unwind_error =
          "after " + util::hex_literal(thread.frames.back().pc) + ": " + thread.unwind_error;
    if (walk.last_sp) scan_stack(thread, *walk.last_sp);
  }

  bool has_cfi(std::uint64_t address) {
    Dwfl_Module* module = dwfl_addrmodule(m_dwfl, address);
    if (!module) return false;
    for (auto* get : {dwfl_module_eh_cfi, dwfl_module_dwarf_cfi}) {
      Dwarf_Addr bias = 0;
      Dwarf_CFI* cfi = get(module, &bias);
      Dwarf_Frame* frame = nullptr;
      if (cfi && dwarf_cfi_addrframe(cfi, address - bias, &frame) == 0) {
        std::free(frame);
        return true;
      }
    }
    return false;
  }

  const MappedModule* module_at(std::uint64_t address) const {
    auto after =
        std::upper_bound(m_modules.begin(), m_modules.end(), address,
                         [](std::uint64_t a, const MappedModule& m) { return a < m.start; });
    if (after == m_modules.begin()) return nullptr;
    const MappedModule& module = *std::prev(after);
    return address < module.end ? &module : nullptr;
  }

  StackFrame symbolize(std::uint64_t pc, bool activation) {
    StackFrame frame;
    frame.pc = pc;
    // A return address points after the call: look up pc - 1 (not for the first frame).
    const std::uint64_t lookup = activation ? pc : pc - 1;
    Dwfl_Module* dwfl_module = m_dwfl ? dwfl_addrmodule(m_dwfl, lookup) : nullptr;
    if (const MappedModule* module = module_at(lookup)) {
      frame.module = module->path;
      frame.module_offset = pc - module->start;
      frame.package = module->package;
    } else if (dwfl_module) {  // the vDSO: in the core, not in NT_FILE
      Dwarf_Addr start = 0;
      const char* name = dwfl_module_info(dwfl_module, nullptr, &start, nullptr, nullptr, nullptr,
                                          nullptr, nullptr);
      frame.module = name ? name : "";
      frame.module_offset = pc - start;
    }
    if (dwfl_module) {
      GElf_Off offset = 0;
      GElf_Sym symbol;
      if (const char* name = dwfl_module_addrinfo(dwfl_module, lookup, &offset, &symbol, nullptr,
                                                  nullptr, nullptr)) {
        frame.symbol = demangle(name);
        frame.symbol_offset = offset + (pc - lookup);
      }
    }
    return frame;
  }

  // Breakpad-style scan (core-dumps.md 3): words on the stack above `sp` that point into
  // executable memory of a module, just after something that looks like a call when the code
  // bytes are known (in the core, or in a served file). Bounded in bytes and frames.
  void scan_stack(CoreThread& thread, std::uint64_t sp) {
    const std::uint64_t start = (sp + 7) & ~std::uint64_t{7};
    const util::ByteView words(m_image.bytes_from(start));
    const std::size_t limit =
        static_cast<std::size_t>(std::min<std::uint64_t>(words.size(), k_scan_bytes));
    std::size_t found = 0;
    for (std::size_t at = 0; at + 8 <= limit && found < k_scan_frames; at += 8) {
      const std::uint64_t value = words.u64(at);
      if (value < 8 || !m_image.executable(value - 1)) continue;
      if (!module_at(value - 1) && !(m_dwfl && dwfl_addrmodule(m_dwfl, value - 1))) continue;
      if (!call_precedes(value)) continue;
      StackFrame frame = symbolize(value, false);
      frame.method = "stack scan";
      thread.frames.push_back(std::move(frame));
      ++found;
    }
  }

  // False only when the code bytes are known and hold no call before `address`.
  bool call_precedes(std::uint64_t address) {
    unsigned char bytes[7];
    if (m_image.read(address - 7, std::as_writable_bytes(std::span(bytes))) == sizeof bytes)
      return looks_like_call_before(bytes);
    Dwfl_Module* module = m_dwfl ? dwfl_addrmodule(m_dwfl, address - 1) : nullptr;
    Dwarf_Addr bias = 0;
    Elf* elf = module ? dwfl_module_getelf(module, &bias) : nullptr;
    std::size_t size = 0;
    const char* raw = elf ? elf_rawfile(elf, &size) : nullptr;
    std::size_t phnum = 0;
    if (!raw || elf_getphdrnum(elf, &phnum) != 0) return true;  // code unknown: accept, marked
    const std::uint64_t link = address - 7 - bias;
    for (std::size_t i = 0; i < phnum; ++i) {
      GElf_Phdr phdr;
      if (!gelf_getphdr(elf, static_cast<int>(i), &phdr) || phdr.p_type != elf::k_pt_load) continue;
      if (link < phdr.p_vaddr || link - phdr.p_vaddr + 7 > phdr.p_filesz) continue;
      const std::uint64_t offset = phdr.p_offset + (link - phdr.p_vaddr);
      if (offset > size || size - offset < 7) return true;
      return looks_like_call_before(reinterpret_cast<const unsigned char*>(raw + offset));
    }
    return true;
  }

  const CoreImage& m_image;
  std::vector<MappedModule>& m_modules;
  const std::vector<ModelObject>& m_models;
  std::vector<std::string>& m_health;
  Dwfl* m_dwfl = nullptr;
  std::string m_attach_error = "no thread notes";
  std::map<std::string, util::Fd> m_extracted;  // package + entry -> private copy
  std::string m_callback_error;                 // what a libdwfl callback threw, if anything
};

int find_elf(Dwfl_Module* module, void**, const char* name, Dwarf_Addr, char** file_name,
             Elf** elf) noexcept {
  *elf = nullptr;
  if (!t_session) return -1;
  return without_exceptions(t_session->callback_error(), -1,
                            [&] { return t_session->serve(module, name, file_name); });
}

}  // namespace

std::vector<CoreThread> unwind_threads(const CoreImage& image, std::vector<MappedModule>& modules,
                                       const std::vector<ModelObject>& models,
                                       std::vector<std::string>& health) {
  Session session(image, modules, models, health);
  return session.run();
}

}  // namespace aoti::parsers::coredump
