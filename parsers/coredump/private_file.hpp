// A private, nameless scratch file: created with mkstemp in $TMPDIR (or /tmp) and unlinked at
// once, so nothing is left behind and no other process can guess or open its path.
#pragma once

#include <cstdint>
#include <span>

#include "parsers/parse_error.hpp"
#include "util/fd.hpp"

namespace aoti::parsers::coredump {

// A private file (see above), open for reading and writing.
Parsed<util::Fd> create_private_file();

// Appends `bytes` at the file's current position, seeking over whole zero pages instead of
// writing them: cores are mostly holes, and a decompressed copy should stay as sparse as the
// original. Call finish_sparse() at the end so a trailing hole still counts in the size.
Parsed<void> write_sparse(int fd, std::span<const unsigned char> bytes);
// The same at `offset`, leaving the file position alone: threads may write apart at once.
Parsed<void> write_sparse_at(int fd, std::uint64_t offset, std::span<const unsigned char> bytes);
Parsed<void> finish_sparse(int fd, std::uint64_t size);

}  // namespace aoti::parsers::coredump
