// Size limits that several readers apply to the same kind of input, named once, so that one path
// never accepts what another refuses. Limits that only one reader has stay beside its code.
#pragma once

#include <cstdint>

namespace aoti::parsers {

// A generated wrapper source (<hash>.wrapper.cpp, and the <hash>.kernel.cpp beside it), read from
// a package (pt2_package), as a bare file (the pipeline) or as a code dump in a TORCH_TRACE
// (trace_builder). torch writes a few MiB at most; this only bounds what is held in memory.
inline constexpr std::uint64_t k_max_wrapper_source = 64ull << 20;

// A model .so deflated in its package, which is inflated into memory whole: by pt2_package to
// read it as ELF, and by the core reader's unwinder to serve it to libdwfl. torch stores the .so
// (read in place, with no limit); only another writer deflates it.
inline constexpr std::uint64_t k_max_deflated_model_so = 512ull << 20;

}  // namespace aoti::parsers
