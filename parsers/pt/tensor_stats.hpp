// Statistics over a saved tensor's logical elements (its size, stride and storage offset followed
// through its storage), read through the zip in chunks: only the part of the storage the tensor
// reaches is read, each byte once when the view does not overlap itself.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "parsers/parse_error.hpp"
#include "parsers/pt/storage_types.hpp"
#include "parsers/random_access.hpp"

namespace aoti::parsers::pt {

struct TensorLayout {
  StorageType type;
  std::int64_t storage_numel = 0;  // elements the storage holds (its record may hold more bytes)
  std::int64_t storage_offset = 0;
  std::vector<std::int64_t> size;
  std::vector<std::int64_t> stride;
  bool big_endian = false;  // the dump's byteorder record
};

struct StatsLimits {
  // Elements visited to summarize one tensor (a dimension of stride 0 is visited once, whatever
  // its size): past it the statistics are left out, the dump's other facts still read.
  std::uint64_t max_elements = 1ull << 30;
  std::uint64_t chunk_bytes = 1ull << 20;
  // A view that reaches some elements more than once is summarized from its span held whole, when
  // the span is no larger than this.
  std::uint64_t max_overlapping_span = 64ull << 20;
};

struct ElementStats {
  std::int64_t numel = 0;  // logical elements, each counted as often as the view reaches it
  std::optional<double> min, max, mean;
  std::int64_t nan_count = 0;
  std::int64_t inf_count = 0;
  bool summarized = false;  // false: the statistics were left out, `skipped` says why
  std::string skipped;
  std::uint64_t bytes_read = 0;  // storage bytes read to summarize it
};

// Fails when the layout is impossible (a negative size, sizes that multiply past 64 bits, an
// element outside the storage); never reads more of `storage` than the layout reaches.
Parsed<ElementStats> summarize_elements(const RandomAccess& storage, const TensorLayout& layout,
                                        const StatsLimits& limits = {});

}  // namespace aoti::parsers::pt
