// libelf's process-wide set-up and its last error, for every reader that opens an ELF core with it.
#pragma once

#include <string>

namespace aoti::parsers::coredump {

// elf_version() sets libelf's process-wide version: once per process, not from every scan worker
// that opens a core at the same time. False when libelf refuses this version.
bool libelf_ready();

// libelf's last error, never NULL (see last_dwfl_error in unwind.cpp).
std::string last_elf_error();

}  // namespace aoti::parsers::coredump
