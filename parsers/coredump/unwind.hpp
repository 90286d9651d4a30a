// Every thread's frames, with libdwfl as eu-stack drives it (core-dumps.md 2.2), files served
// by build-id (the model .so from its package, matching files on this machine), symbols from
// their .symtab/.dynsym, and a marked stack-scanning fallback where unwinding stops.
#pragma once

#include <string>
#include <vector>

#include "model/facts/core_dump.hpp"
#include "parsers/coredump/core_image.hpp"
#include "parsers/coredump/core_reader.hpp"

namespace aoti::parsers::coredump {

// Threads in note order (the crashing thread first in kernel cores). Sets
// MappedModule::symbols_from for the modules a file was found for; adds to `health` what
// limited the unwinding.
std::vector<aoti::model::CoreThread> unwind_threads(const CoreImage& image,
                                                    std::vector<aoti::model::MappedModule>& modules,
                                                    const std::vector<ModelObject>& models,
                                                    std::vector<std::string>& health);

}  // namespace aoti::parsers::coredump
