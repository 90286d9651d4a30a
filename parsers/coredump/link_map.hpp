// The file names in the dynamic linker's link map (r_debug.r_map) in a core's memory, found the
// ways libdwfl finds them: dwfl_core_file_report walks that list and opens every name with a plain
// blocking open(), no callback asked first, so the names are looked at before libdwfl is.
#pragma once

#include <string>
#include <vector>

#include "model/facts/core_dump.hpp"
#include "parsers/coredump/core_image.hpp"

namespace aoti::parsers::coredump {

// Every non-empty l_name of an entry with an l_ld, from each r_debug the core points to: through
// the auxiliary vector's AT_PHDR (the executable's PT_PHDR and PT_DYNAMIC, then DT_DEBUG), and
// through the DT_DEBUG of each module whose ELF header is in the core (libdwfl's fallback when the
// program headers are not dumped). Bounded: a crafted list may be long or loop.
std::vector<std::string> link_map_names(const CoreImage& image,
                                        const std::vector<model::MappedModule>& modules);

}  // namespace aoti::parsers::coredump
