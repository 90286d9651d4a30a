// What a core dump tells: the process, the signal, every thread's frames, the module map.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aoti::model {

struct StackFrame {
  std::uint64_t pc = 0;
  std::string module;               // path as mapped (NT_FILE), "" when the pc is in no module
  std::uint64_t module_offset = 0;  // pc relative to the module's load base
  std::string symbol;               // demangled; "" when unknown
  std::uint64_t symbol_offset = 0;
  std::string method;  // "initial", "cfi", "frame pointer", "stack scan" (less trusted)
  std::string
      package;  // the model artifact (.pt2 or bare model .so) this frame is in, "" otherwise

  // False for a frame found by scanning the stack: a return address that may be stale, a
  // candidate, never part of the call path.
  bool unwound() const { return method != "stack scan"; }
};

// What every writer says of stack-scan frames, above the list of them (the label, then what it
// means).
inline constexpr std::string_view k_stack_scan_label =
    "candidates: return addresses found on the stack, not an unwound path";
inline constexpr std::string_view k_stack_scan_meaning = k_stack_scan_label.substr(12);

struct CoreThread {
  int tid = 0;
  bool crashed = false;  // the first NT_PRSTATUS of a kernel-written core
  std::vector<StackFrame> frames;
  std::string unwind_error;  // why unwinding stopped early, "" when it reached the end
};

struct MappedModule {
  std::string path;  // NT_FILE path, " (deleted)" stripped
  bool deleted = false;
  std::uint64_t start = 0;
  std::uint64_t end = 0;
  std::uint64_t file_offset = 0;
  std::string build_id;  // hex, from the first page dumped in the core; "" when not dumped
  std::string package;   // the model artifact whose .so has this build-id (a .pt2 or a bare model
                         // .so), "" otherwise
  // The file that gave this module's symbols and unwind tables: "<package>:<entry>" for a
  // model .so, a path on the analyzing machine whose build-id matched, "" when none did.
  std::string symbols_from = {};
};

struct CoreFacts {
  std::string artifact;             // the core as the user named it
  std::string compression;          // "", "xz", "zstd"
  std::vector<std::string> health;  // "truncated: 40% of the PT_LOAD bytes are past the end", ...
  // Core health as facts (the `health` notes say the same for a person).
  bool truncated = false;      // segments extend past the end of the file
  bool has_file_note = false;  // NT_FILE present (the module map with paths)
  bool kernel_written =
      true;  // false: gdb gcore or another writer; the first thread may not be the one that crashed
  int pid = 0;
  std::string process_name;  // NT_PRPSINFO pr_fname (PyTorch may rename it: "pt_main_thread")
  std::string command_line;  // NT_PRPSINFO pr_psargs: the first 80 bytes of argv, spaces for NULs
  std::string executable;
  std::vector<std::string> argv;
  std::map<std::string, std::string> environment;
  int signal = 0;
  std::string signal_name;  // "SIGSEGV"
  int signal_code = 0;
  std::string signal_code_name;  // "SEGV_MAPERR", "SI_TKILL"
  // si_addr of a fault; absent for signals a process sent and for SI_KERNEL faults (a general
  // protection fault reports no address: its si_addr 0 does not mean null).
  std::optional<std::uint64_t> fault_address;
  std::optional<int> sender_pid;  // for signals sent by a process (kill, tkill, abort's raise)
  // The fault decoded from signal, code and address against the core's memory map, for a person:
  // which it is, then what it means ("the null page, address 0: a null pointer was dereferenced").
  std::string fault_region;
  // The same, for checks: "null" (below 64 KiB), "general-protection" (SI_KERNEL: no address,
  // typically a non-canonical pointer), "non-canonical", "kernel" (the kernel half), "guard" (the
  // guard below a thread's stack: a stack overflow), "stack", "module", "heap" (a malloc arena's
  // tail), "device" (a CUDA-reservation-looking address), "protected" (a small PROT_NONE
  // mapping), "anonymous", "unmapped", "instruction" (SIGILL / SIGFPE / SIGTRAP: si_addr is the
  // faulting instruction); "" for a signal without a fault.
  std::string fault_kind;
  std::vector<CoreThread> threads;  // the crashing thread first
  std::vector<MappedModule> modules;
};

}  // namespace aoti::model
