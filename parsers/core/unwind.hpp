// Every thread's frames, with libdwfl as eu-stack drives it (core-dumps.md 2.2), files served
// by build-id (the model .so from its package, matching files on this machine), symbols from
// their .symtab/.dynsym, and a marked stack-scanning fallback where unwinding stops.
#pragma once

#include <string>
#include <vector>

#include "analyzer/core/core_facts.hpp"
#include "parsers/core/core_image.hpp"
#include "parsers/core/core_reader.hpp"

namespace aoti::parsers::core {

// Threads in note order (the crashing thread first in kernel cores). Sets
// MappedModule::symbols_from for the modules a file was found for; adds to `health` what
// limited the unwinding.
std::vector<aoti::core::CoreThread> unwind_threads(const CoreImage& image, std::vector<aoti::core::MappedModule>& modules,
                                                   const std::vector<ModelObject>& models,
                                                   std::vector<std::string>& health);

}  // namespace aoti::parsers::core
