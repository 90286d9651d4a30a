// Reads a core dump of a process that ran an AOTI model: the signal and where it hit, every
// thread's frames (libdwfl, with the model .so served from its package by build-id), the
// module map, argv and environment, and how healthy the core itself is.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "model/facts/core_dump.hpp"
#include "parsers/coredump/decompress.hpp"
#include "parsers/parse_error.hpp"

namespace aoti::parsers::coredump {

// A model .so that may be mapped in the core: inside a package, or a bare model .so.
struct ModelObject {
  std::string build_id;  // hex, as ElfFacts::build_id
  std::string package;   // path of the .pt2 (or of the bare .so) as given
  std::string entry;     // zip entry of the .so; "" for a bare .so

  // "model.pt2:model/.../x.wrapper.so", or the bare .so's path.
  std::string name() const { return entry.empty() ? package : package + ":" + entry; }
};

struct CoreReadOptions {
  DecodeLimits decoding;  // for an xz or zstd core
};

// Fails only when nothing can be read: not an ELF core, not x86-64, unreadable, a compressed
// stream that yields no byte. Truncated cores, cores without NT_FILE, cores that did not map
// any of `models`: facts, with `health` saying what is missing.
Parsed<aoti::model::CoreFacts> read_core(const std::filesystem::path& path,
                                         const std::string& display,
                                         const std::vector<ModelObject>& models,
                                         const CoreReadOptions& = {});

// The same in two steps, so that a compressed core can be inflated while other inputs load
// (`models` come from them): the file opened, and decoded when compressed; then read.
Parsed<OpenedDump> open_core_dump(const std::filesystem::path& path, const std::string& display,
                                  const CoreReadOptions& = {});
Parsed<aoti::model::CoreFacts> read_core(Parsed<OpenedDump> dump, const std::string& display,
                                         const std::vector<ModelObject>& models);

// ELF ET_CORE, or an xz / zstd stream whose first decoded bytes are one. A zstd block decodes only
// whole: give a zstd stream up to 256 KiB of head.
bool looks_like_core(std::string_view head);

}  // namespace aoti::parsers::coredump
