#include "parsers/coredump/libelf_init.hpp"

#include <libelf.h>

#include <mutex>

namespace aoti::parsers::coredump {

bool libelf_ready() {
  static std::once_flag once;
  static bool ready = false;
  std::call_once(once, [] { ready = elf_version(EV_CURRENT) != EV_NONE; });
  return ready;
}

std::string last_elf_error() {
  const char* message = elf_errmsg(-1);
  return message ? message : "unknown libelf error";
}

}  // namespace aoti::parsers::coredump
