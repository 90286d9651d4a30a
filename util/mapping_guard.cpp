#include "util/mapping_guard.hpp"

#include <atomic>
#include <csignal>
#include <cstdint>
#include <mutex>

#include <sys/mman.h>
#include <unistd.h>

namespace aoti::util {
namespace {

// The handler reads these while any thread may register or unregister: plain atomics in a fixed
// table (a signal handler may neither lock nor allocate).
struct Slot {
  std::atomic<bool> taken{false};
  std::atomic<std::uintptr_t> begin{0};
  std::atomic<std::uintptr_t> end{0};
  std::atomic<bool> cut{false};
};
constexpr int k_slots = 256;
Slot g_slots[k_slots];
struct sigaction g_previous{};

void on_sigbus(int signal, siginfo_t* info, void* context) {
  const auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
  for (Slot& slot : g_slots) {
    if (!slot.taken.load(std::memory_order_acquire)) continue;
    if (address < slot.begin.load(std::memory_order_acquire) ||
        address >= slot.end.load(std::memory_order_acquire))
      continue;
    // The page past the file's new end becomes a private page of zeros; the faulting read runs
    // again and finds it. mmap is a plain system call on Linux, safe in a handler.
    const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    void* at = reinterpret_cast<void*>(address & ~(page - 1));
    if (::mmap(at, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
      break;
    slot.cut.store(true, std::memory_order_release);
    return;
  }
  // Not ours: whoever handled SIGBUS before, or the default action (the faulting instruction runs
  // again and the process ends with SIGBUS, as it would have without this handler).
  if (g_previous.sa_flags & SA_SIGINFO) {
    g_previous.sa_sigaction(signal, info, context);
  } else if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN) {
    g_previous.sa_handler(signal);
  } else {
    ::signal(SIGBUS, SIG_DFL);
  }
}

void install_handler() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction action{};
    action.sa_sigaction = on_sigbus;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGBUS, &action, &g_previous);
  });
}

}  // namespace

MappingGuard::MappingGuard(const void* begin, std::size_t size) {
  if (!begin || size == 0) return;
  install_handler();
  for (int i = 0; i < k_slots; ++i) {
    bool expected = false;
    Slot& slot = g_slots[i];
    if (!slot.taken.compare_exchange_strong(expected, true, std::memory_order_acq_rel)) continue;
    // An end of 0 matches no address: the range is published by writing the end last.
    slot.end.store(0, std::memory_order_release);
    slot.cut.store(false, std::memory_order_release);
    const auto first = reinterpret_cast<std::uintptr_t>(begin);
    slot.begin.store(first, std::memory_order_release);
    slot.end.store(first + size, std::memory_order_release);
    m_slot = i;
    return;
  }
}

MappingGuard::~MappingGuard() {
  if (m_slot < 0) return;
  Slot& slot = g_slots[m_slot];
  slot.end.store(0, std::memory_order_release);
  slot.taken.store(false, std::memory_order_release);
}

bool MappingGuard::cut() const {
  return m_slot >= 0 && g_slots[m_slot].cut.load(std::memory_order_acquire);
}

}  // namespace aoti::util
