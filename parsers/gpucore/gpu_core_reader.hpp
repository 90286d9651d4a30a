// Reads an NVIDIA GPU core dump, the file the CUDA driver writes when a kernel faults with
// CUDA_ENABLE_COREDUMP_ON_EXCEPTION=1: an ELF ET_CORE for e_machine 190 whose `.cudbg.*` sections
// are tables (devices, contexts, modules, grids, SMs, blocks, warps, lanes; the layouts of NVIDIA's
// cudacoredump.h) and the cubins that were loaded. Plain, xz or zstd, read in place.
//
// Every table is read by the row size its section declares (sh_entsize): drivers append fields, so
// a field past an old row reads as absent, and a row size of 0 or one larger than its section is a
// health note, not a crash.
#pragma once

#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

#include "model/facts/gpu_core.hpp"
#include "parsers/coredump/decompress.hpp"
#include "parsers/parse_error.hpp"

namespace aoti::parsers::gpucore {

struct GpuCoreReadOptions {
  coredump::DecodeLimits decoding;  // for an xz or zstd dump
};

// Fails only when nothing can be read: not an ELF GPU core, unreadable, no section header table.
Parsed<model::GpuCoreFacts> read_gpu_core(const std::filesystem::path& path,
                                          const std::string& display,
                                          const GpuCoreReadOptions& = {});

// The same on a dump already in memory (tests cut and corrupt a real dump this way).
Parsed<model::GpuCoreFacts> read_gpu_core_bytes(std::span<const std::byte> file,
                                                const std::string& display);

// An ELF ET_CORE of e_machine 190 (raw, or the first decoded bytes of an xz / zstd stream).
bool looks_like_gpu_core(std::string_view head);

}  // namespace aoti::parsers::gpucore
