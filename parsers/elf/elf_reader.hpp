// A bounds-checked ELF64 reader over a RandomAccess source, so the model .so is read straight from
// its stored zip entry. libelf needs a file descriptor or the whole image in memory; this reads
// only the headers, the dynamic section, the dynamic symbol table and small notes.
#pragma once

#include <filesystem>

#include "model/case.hpp"
#include "parsers/parse_error.hpp"
#include "parsers/random_access.hpp"

namespace aoti::parsers::elf {

Parsed<::aoti::model::ElfFacts> read_shared_object(const RandomAccess& source,
                                                   const ::aoti::model::Location& where);
// The same, for a file on disk (a bare model .so).
Parsed<::aoti::model::ElfFacts> read_shared_object_file(const std::filesystem::path& path,
                                                        const ::aoti::model::Location& where);

// An AOTI model .so: it exports the model container C API that torch's runners call, a create
// function (AOTInductorModelContainerCreate / ...CreateWithDevice) and
// AOTInductorModelContainerRun. Custom-op libraries and other shared objects do not.
bool is_aoti_model(const ::aoti::model::ElfFacts& facts);

}  // namespace aoti::parsers::elf
