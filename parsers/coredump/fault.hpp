// What a crash's siginfo says about the fault: si_addr decoded together with the signal and its
// code, against the core's own memory map and threads (core-dumps.md 1.4). A derived statement,
// never a guess beyond what the core shows.
#pragma once

#include <string>

#include "model/facts/core_dump.hpp"
#include "parsers/coredump/core_image.hpp"

namespace aoti::parsers::coredump {

struct FaultPlace {
  std::string kind;  // CoreFacts::fault_kind
  std::string text;  // CoreFacts::fault_region: which it is, then what it means
};

// Needs the signal, its code, the fault address (absent for SI_KERNEL faults), the modules and
// the image's segments and thread registers. Empty for a signal that carries no address.
FaultPlace describe_fault(const CoreImage& image, const aoti::model::CoreFacts& facts);

// True for si_code SI_KERNEL on SIGSEGV or SIGBUS: a general protection (or stack segment) fault,
// for which the kernel reports no address (si_addr is 0 and does not mean null).
bool is_general_protection(int signo, int code);

}  // namespace aoti::parsers::coredump
