#include "parsers/coredump/fault.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <vector>

#include "parsers/elf/types.hpp"
#include "util/format_size.hpp"
#include "util/hex.hpp"

namespace aoti::parsers::coredump {
namespace {

using aoti::model::CoreFacts;
using aoti::model::MappedModule;
using util::format_approximate_size;
using util::hex_literal;

// Linux x86-64 numbers: the core's process, not this machine, defines them.
constexpr int k_sigill = 4;
constexpr int k_sigtrap = 5;
constexpr int k_sigbus = 7;
constexpr int k_sigfpe = 8;
constexpr int k_sigsegv = 11;
constexpr int k_si_kernel = 0x80;
constexpr int k_segv_accerr = 2;
constexpr int k_bus_adrerr = 2;

constexpr std::uint64_t k_page = 4096;
constexpr std::uint64_t k_mmap_min_addr = 0x10000;           // vm.mmap_min_addr's default
constexpr std::uint64_t k_first_non_canonical = 1ull << 47;  // 4-level paging: user space ends here
constexpr std::uint64_t k_kernel_half = 0xffff800000000000ull;
constexpr std::uint64_t k_near = 64 << 10;            // "just past" a mapping
constexpr std::uint64_t k_stack_guard_gap = 1 << 20;  // stack_guard_gap: 256 pages
constexpr std::uint64_t k_small_protected = 1 << 20;  // guard regions, not reservations

std::string range(const Segment& segment) {
  return hex_literal(segment.vaddr) + "-" + hex_literal(segment.end()) + ", " +
         format_approximate_size(segment.memsz);
}

std::string permissions(std::uint32_t flags) {
  std::string text = "---";
  if (flags & elf::k_pf_r) text[0] = 'r';
  if (flags & elf::k_pf_w) text[1] = 'w';
  if (flags & elf::k_pf_x) text[2] = 'x';
  return text;
}

bool canonical(std::uint64_t address) {
  return address < k_first_non_canonical || address >= k_kernel_half;
}

// A thread's stack: the writable segment holding its stack pointer; when the pointer already
// sits in the guard page below (an overflow), the segment above that guard.
struct ThreadStack {
  int tid = 0;
  const Segment* segment = nullptr;
};

std::vector<ThreadStack> thread_stacks(const CoreImage& image) {
  std::vector<ThreadStack> stacks;
  for (const ThreadNote& thread : image.notes().threads) {
    const Segment* segment = image.segment_at(thread.sp());
    if (segment && segment->flags == 0) segment = image.segment_at(segment->end());
    if (segment && (segment->flags & elf::k_pf_w)) stacks.push_back({thread.tid, segment});
  }
  return stacks;
}

class Describer {
 public:
  Describer(const CoreImage& image, const CoreFacts& facts)
      : m_image(image), m_facts(facts), m_stacks(thread_stacks(image)) {}

  FaultPlace describe() const {
    const int signo = m_facts.signal, code = m_facts.signal_code;
    if (is_general_protection(signo, code)) return general_protection();
    if (!m_facts.fault_address) return {};
    const std::uint64_t address = *m_facts.fault_address;
    if (signo == k_sigill || signo == k_sigfpe || signo == k_sigtrap) return instruction(address);
    const Segment* segment = m_image.segment_at(address);
    if (const MappedModule* module = module_at(address))
      return in_module(*module, address, segment);
    if (const auto guard = guard_of(address, segment)) return *guard;
    if (segment) return in_segment(*segment);
    return unmapped(address);
  }

 private:
  const MappedModule* module_at(std::uint64_t address) const {
    for (const MappedModule& module : m_facts.modules)
      if (address >= module.start && address < module.end) return &module;
    return nullptr;
  }

  const ThreadStack* stack_with(const Segment* segment) const {
    for (const ThreadStack& stack : m_stacks)
      if (segment && stack.segment == segment) return &stack;
    return nullptr;
  }

  // What a person calls the memory of one segment.
  std::string name_of(const Segment& segment) const {
    if (const MappedModule* module = module_at(segment.vaddr)) return "module " + module->path;
    if (const ThreadStack* stack = stack_with(&segment))
      return "the stack of thread " + std::to_string(stack->tid);
    return "anonymous memory " + hex_literal(segment.vaddr) + "-" + hex_literal(segment.end()) +
           " (" + permissions(segment.flags) + ")";
  }

  // SI_KERNEL: the kernel raised the signal itself, from a general protection fault (#GP) or a
  // stack segment fault (#SS). Neither reports an address: si_addr is 0.
  FaultPlace general_protection() const {
    std::string text = "no fault address: a general protection fault (" + m_facts.signal_name +
                       " with si_code SI_KERNEL), for which the kernel reports no address, so "
                       "si_addr 0 does not mean a null "
                       "pointer. On x86-64 this is typically a non-canonical pointer (bits 47-63 "
                       "not all equal: garbage, a freed or "
                       "uninitialized pointer, a base plus a huge offset) or an aligned SSE/AVX "
                       "access to a misaligned address";
    const auto& threads = m_image.notes().threads;
    if (m_facts.kernel_written && !threads.empty()) {
      // user_regs_struct order: the general-purpose registers, then rsp at 19.
      static constexpr std::array<std::pair<std::size_t, const char*>, 16> k_registers = {
          {{10, "rax"},
           {5, "rbx"},
           {11, "rcx"},
           {12, "rdx"},
           {13, "rsi"},
           {14, "rdi"},
           {4, "rbp"},
           {19, "rsp"},
           {9, "r8"},
           {8, "r9"},
           {7, "r10"},
           {6, "r11"},
           {3, "r12"},
           {2, "r13"},
           {1, "r14"},
           {0, "r15"}}};
      std::string bad;
      for (const auto& [index, name] : k_registers) {
        const std::uint64_t value = threads.front().regs[index];
        if (!canonical(value))
          bad += (bad.empty() ? "" : ", ") + std::string(name) + " = " + hex_literal(value);
      }
      text += bad.empty() ? "; no general-purpose register of the crashing thread holds a "
                            "non-canonical value, so "
                            "the address was computed (a base plus a scaled index or an offset) or "
                            "the access was "
                            "misaligned"
                          : "; registers of the crashing thread that hold a non-canonical value, "
                            "which cannot be "
                            "a valid pointer if it was used as one: " +
                                bad;
    }
    return {"general-protection", text};
  }

  // SIGILL, SIGFPE, SIGTRAP: si_addr is the faulting instruction, not data.
  FaultPlace instruction(std::uint64_t address) const {
    std::string where;
    if (const MappedModule* module = module_at(address))
      where = "in module " + module->path + " (+" + hex_literal(address - module->start) + ")";
    else if (const Segment* segment = m_image.segment_at(address))
      where = "in " + name_of(*segment);
    else
      where = "at an address no mapping covers";
    const int code = m_facts.signal_code;
    std::string meaning;
    if (m_facts.signal == k_sigfpe && code == 1)
      meaning = "an integer division by zero (x86 reports INT64_MIN / -1 the same way)";
    else if (m_facts.signal == k_sigfpe)
      meaning = "a floating-point exception the program had unmasked";
    else if (m_facts.signal == k_sigill && (code == 1 || code == 2))
      meaning =
          "an invalid opcode: an instruction this CPU does not implement (code built for a newer "
          "instruction set, "
          "such as AVX-512 or AMX, than the machine that ran it) or a deliberate trap (ud2)";
    else if (m_facts.signal == k_sigill && (code == 5 || code == 6))
      meaning = "a privileged instruction or register, which user code may not use";
    else if (m_facts.signal == k_sigtrap)
      meaning = "a breakpoint or trace trap";
    std::string text = "the faulting instruction (for " + m_facts.signal_name +
                       ", si_addr is the instruction's address, not data) " + where;
    if (!meaning.empty()) text += ": " + meaning;
    return {"instruction", text};
  }

  FaultPlace in_module(const MappedModule& module, std::uint64_t address,
                       const Segment* segment) const {
    std::string text = "module " + module.path + " (+" + hex_literal(address - module.start) + ")";
    const int code = m_facts.signal_code;
    if (m_facts.signal == k_sigbus && code == k_bus_adrerr)
      text +=
          ": past the end of the mapped file (SIGBUS BUS_ADRERR): the file is shorter than when it "
          "was mapped, "
          "truncated or rewritten in place while the process had it loaded";
    else if (!segment && m_facts.signal == k_sigsegv)
      text += ": inside the module's address range but in a gap that no segment maps";
    else if (m_facts.signal == k_sigsegv && code == k_segv_accerr)
      text += ", in a mapping (" + permissions(segment ? segment->flags : 0) +
              ") that does not allow the access: a write to its code or read-only data, or a jump "
              "into data";
    return {"module", text};
  }

  // A PROT_NONE page right below a thread's stack (glibc's pthread guard), or the unmapped gap
  // the kernel keeps below a growing stack: a thread ran past the end of its stack.
  std::optional<FaultPlace> guard_of(std::uint64_t address, const Segment* segment) const {
    for (const ThreadStack& stack : m_stacks) {
      const std::uint64_t bottom = stack.segment->vaddr;
      const bool guard_page = segment && segment->flags == 0 && segment->end() == bottom;
      const bool guard_gap = !segment && address < bottom && bottom - address <= k_stack_guard_gap;
      if (!guard_page && !guard_gap) continue;
      const std::string where =
          guard_page
              ? "the guard page (" + range(*segment) + ", PROT_NONE) below the stack of thread " +
                    std::to_string(stack.tid)
              : "unmapped, " + hex_literal(bottom - address) + " bytes below the stack of thread " +
                    std::to_string(stack.tid) + " (within the kernel's 1 MiB stack guard gap)";
      return FaultPlace{"guard",
                        where +
                            ": the thread ran past the end of its stack, a stack overflow (deep or "
                            "unbounded recursion, or a large array on the stack)"};
    }
    return std::nullopt;
  }

  FaultPlace in_segment(const Segment& segment) const {
    if (const ThreadStack* stack = stack_with(&segment))
      return {"stack", "the stack of thread " + std::to_string(stack->tid)};
    if (segment.flags == 0) {
      // glibc's malloc arenas reserve 64 MiB, read-write at the head and PROT_NONE after it, on
      // 64 MiB boundaries: such a tail is heap growth room, not device memory.
      const Segment* before = m_image.segment_at(segment.vaddr - 1);
      const bool arena_tail = before && (before->flags & elf::k_pf_w) &&
                              before->end() == segment.vaddr && segment.end() % (64 << 20) == 0 &&
                              segment.memsz < (64 << 20);
      if (arena_tail)
        return {"heap", "the unused tail of a malloc arena (" + range(segment) +
                            ", PROT_NONE): a wild heap pointer"};
      if (segment.memsz < k_small_protected)
        return {"protected",
                "an inaccessible (PROT_NONE) mapping (" + range(segment) +
                    "): a guard region or memory the program protected, which no access may touch"};
      // The CUDA driver reserves the unified virtual address range for device memory as large
      // anonymous PROT_NONE mappings in the host process; a device pointer read on the CPU
      // lands in one and faults with SEGV_ACCERR.
      return {"device",
              "a device-pointer-looking address: inside an inaccessible (PROT_NONE) anonymous "
              "reservation (" +
                  range(segment) +
                  "), the way the CUDA driver reserves its unified virtual address range for "
                  "device memory"};
    }
    std::string text = "anonymous memory " + hex_literal(segment.vaddr) + "-" +
                       hex_literal(segment.end()) + " (" + permissions(segment.flags) +
                       (segment.filesz ? ")" : ", not dumped)");
    if (m_facts.signal == k_sigsegv && m_facts.signal_code == k_segv_accerr)
      text +=
          ": mapped, but its permissions do not allow the access (a write to read-only memory, or "
          "executing data)";
    return {"anonymous", text};
  }

  FaultPlace unmapped(std::uint64_t address) const {
    if (address < k_page)
      return {"null", address == 0
                          ? "the null page, address 0: a null pointer was dereferenced"
                          : "the null page: a null pointer plus an offset of " +
                                hex_literal(address) + " (a field or element of a null object)"};
    if (address < k_mmap_min_addr)
      return {"null",
              "below the lowest address a process may map (vm.mmap_min_addr, 64 KiB by default): a "
              "null "
              "pointer plus an offset of " +
                  hex_literal(address) + " (an element or field far into a null object)"};
    if (address >= k_kernel_half) {
      std::string text = "in the kernel's half of the address space, which user code cannot access";
      if (address >= ~0ull - 0xffff)
        text += ": as a signed number it is -" + std::to_string(~address + 1) +
                ", a small negative value used as a pointer or offset";
      else
        text += ": a corrupted pointer";
      return {"kernel", text};
    }
    if (address >= k_first_non_canonical)
      return {"non-canonical",
              "a non-canonical address (bits 47-63 not all equal), where no mapping can exist: a "
              "corrupted pointer"};
    const auto& segments = m_image.segments();
    const auto after =
        std::upper_bound(segments.begin(), segments.end(), address,
                         [](std::uint64_t a, const Segment& s) { return a < s.vaddr; });
    const Segment* above = after == segments.end() ? nullptr : &*after;
    const Segment* below = after == segments.begin() ? nullptr : &*std::prev(after);
    if (below && address - below->end() < k_near)
      return {"unmapped", "unmapped, " + hex_literal(address - below->end()) +
                              " bytes past the end of " + name_of(*below) +
                              ": an access beyond the end of that memory (a buffer overrun)"};
    if (above && above->vaddr - address <= k_near)
      return {"unmapped",
              "unmapped, " + hex_literal(above->vaddr - address) + " bytes before the start of " +
                  name_of(*above) +
                  ": an access before its beginning (a buffer underrun, or a negative index)"};
    std::string nearest;
    if (below)
      nearest += "the nearest mapping below ends " +
                 format_approximate_size(address - below->end()) + " away";
    if (above)
      nearest +=
          (nearest.empty() ? "the nearest mapping above starts " : ", the nearest above starts ") +
          format_approximate_size(above->vaddr - address) + " away";
    return {"unmapped", "unmapped, far from every mapping" +
                            (nearest.empty() ? std::string() : " (" + nearest + ")") +
                            ": a wild pointer, such as garbage, a freed or uninitialized pointer, "
                            "or a base plus an "
                            "out-of-range index"};
  }

  const CoreImage& m_image;
  const CoreFacts& m_facts;
  std::vector<ThreadStack> m_stacks;
};

}  // namespace

bool is_general_protection(int signo, int code) {
  return code == k_si_kernel && (signo == k_sigsegv || signo == k_sigbus);
}

FaultPlace describe_fault(const CoreImage& image, const CoreFacts& facts) {
  return Describer(image, facts).describe();
}

}  // namespace aoti::parsers::coredump
