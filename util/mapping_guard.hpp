// A file mapped with mmap that shrinks while it is read (truncated by the process writing it, a
// scan of a folder still being written) raises SIGBUS at the first touch of a page past its new
// end, and SIGBUS ends the process: one such file would take a whole nightly scan down. A
// MappingGuard registers a mapping: a SIGBUS inside it maps a page of zeros there instead, marks
// the mapping cut and lets the read go on; the reader asks cut() when it is done and reports the
// file instead of what it read. A SIGBUS anywhere else goes to the handler installed before this
// one (a sanitizer's), or ends the process as it always did.
#pragma once

#include <cstddef>

namespace aoti::util {

class MappingGuard {
 public:
  // Guards [begin, begin + size). Up to 256 mappings are guarded at once; past that a mapping is
  // not (guarded() is false) and a cut file ends the process as before.
  MappingGuard(const void* begin, std::size_t size);
  ~MappingGuard();
  MappingGuard(const MappingGuard&) = delete;
  MappingGuard& operator=(const MappingGuard&) = delete;

  bool guarded() const { return m_slot >= 0; }
  // Whether a read touched a page the file no longer has: those pages read as zeros.
  bool cut() const;

 private:
  int m_slot = -1;
};

}  // namespace aoti::util
