// A bounds-checked ELF64 reader over a RandomAccess source, so the model .so is read straight from
// its stored zip entry. libelf needs a file descriptor or the whole image in memory; this reads
// only the headers, the dynamic section, the dynamic symbol table and small notes.
#pragma once

#include "analyzer/core/case.hpp"
#include "parsers/parse_error.hpp"
#include "parsers/random_access.hpp"

namespace aoti::parsers::elf {

Parsed<::aoti::core::ElfFacts> read_shared_object(const RandomAccess& source, const ::aoti::core::Location& where);

}  // namespace aoti::parsers::elf
