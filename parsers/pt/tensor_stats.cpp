#include "parsers/pt/tensor_stats.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <span>

#include "util/byte_reader.hpp"
#include "util/format_size.hpp"

namespace aoti::parsers::pt {
namespace {

// Offsets and extents of forged layouts, computed without overflow (GCC and Clang's 128-bit type).
__extension__ typedef __int128 Wide;

struct Dim {
  std::int64_t size;
  std::int64_t stride;  // > 0 once planned
};

// The elements a layout reaches, as a walk: `dims` outermost first (largest stride first, so a
// view that does not overlap itself reaches its elements in increasing offset), from `base`, each
// element standing for `multiplicity` logical ones (the dimensions of stride 0).
struct Walk {
  std::int64_t numel = 0;
  std::vector<Dim> dims;
  std::int64_t base = 0;
  std::int64_t first = 0, last = 0;  // the lowest and highest element reached
  std::int64_t multiplicity = 1;
  std::uint64_t visits = 1;  // numel / multiplicity
  bool overlapping = false;
};

std::string dims_text(const std::vector<std::int64_t>& values) {
  return fmt::format("[{}]", fmt::join(values, ", "));
}

Parsed<Walk> plan(const TensorLayout& layout) {
  Walk walk;
  Wide numel = 1;
  for (const std::int64_t size : layout.size) {
    if (size < 0)
      return fail(
          fmt::format("the tensor's size {} holds a negative dimension", dims_text(layout.size)));
    numel *= size;
    if (numel > std::numeric_limits<std::int64_t>::max())
      return fail(fmt::format("the tensor's size {} holds more than 2^63 elements",
                              dims_text(layout.size)));
  }
  walk.numel = static_cast<std::int64_t>(numel);
  if (walk.numel == 0) return walk;
  if (layout.storage_offset < 0)
    return fail(fmt::format("storage offset {} is negative", layout.storage_offset));
  Wide low = layout.storage_offset, high = layout.storage_offset, base = layout.storage_offset;
  for (std::size_t d = 0; d < layout.size.size(); ++d) {
    const std::int64_t size = layout.size[d], stride = layout.stride[d];
    if (size == 1) continue;
    const Wide extent = Wide{size - 1} * stride;
    (stride > 0 ? high : low) += extent;
    if (stride == 0) {
      walk.multiplicity *= size;  // fits: a factor of numel
    } else if (stride < 0) {
      base += extent;  // walked from its lowest element up: the order does not change statistics
      walk.dims.push_back({size, -stride});
    } else {
      walk.dims.push_back({size, stride});
    }
  }
  if (low < 0)
    return fail(fmt::format(
        "size {}, stride {} and storage offset {} reach before the storage's first element",
        dims_text(layout.size), dims_text(layout.stride), layout.storage_offset));
  if (high >= layout.storage_numel)
    return fail(fmt::format(
        "size {}, stride {} and storage offset {} reach element {} of a storage of {} elements",
        dims_text(layout.size), dims_text(layout.stride), layout.storage_offset,
        fmt::to_string(static_cast<std::uint64_t>(
            std::min<Wide>(high, std::numeric_limits<std::uint64_t>::max()))),
        layout.storage_numel));
  walk.first = static_cast<std::int64_t>(low);
  walk.last = static_cast<std::int64_t>(high);
  walk.base = static_cast<std::int64_t>(base);
  walk.visits = static_cast<std::uint64_t>(walk.numel / walk.multiplicity);
  std::sort(walk.dims.begin(), walk.dims.end(),
            [](const Dim& a, const Dim& b) { return a.stride > b.stride; });
  // Innermost first: each stride must step past everything the dimensions inside it reach.
  Wide reached = 0;
  for (auto dim = walk.dims.rbegin(); dim != walk.dims.rend(); ++dim) {
    if (dim->stride <= reached) walk.overlapping = true;
    reached += Wide{dim->size - 1} * dim->stride;
  }
  return walk;
}

// The storage's bytes from `first` to `last` element, read a chunk at a time as the walk asks.
class StorageWindow {
 public:
  StorageWindow(const RandomAccess& storage, std::size_t element_size, std::int64_t first,
                std::int64_t last, std::uint64_t chunk_bytes)
      : m_storage(storage),
        m_element_size(element_size),
        m_end(static_cast<std::uint64_t>(last + 1) * element_size),
        m_chunk(std::max<std::uint64_t>(chunk_bytes / element_size, 1) * element_size) {
    load(static_cast<std::uint64_t>(first) * element_size);
  }

  const std::byte* element(std::int64_t index) {
    const std::uint64_t at = static_cast<std::uint64_t>(index) * m_element_size;
    if (at < m_start || at + m_element_size > m_start + m_buffer.size()) load(at);
    return m_buffer.data() + (at - m_start);
  }
  std::uint64_t bytes_read() const { return m_bytes_read; }

 private:
  void load(std::uint64_t at) {
    m_start = at;
    m_buffer.resize(static_cast<std::size_t>(std::min(m_chunk, m_end - at)));
    m_storage.read(at, m_buffer);
    m_bytes_read += m_buffer.size();
  }

  const RandomAccess& m_storage;
  std::size_t m_element_size;
  std::uint64_t m_end;
  std::uint64_t m_chunk;
  std::uint64_t m_start = 0;
  std::vector<std::byte> m_buffer;
  std::uint64_t m_bytes_read = 0;
};

template <class U>
U load_unsigned(const std::byte* bytes, bool big_endian) {
  U value = 0;
  for (std::size_t i = 0; i < sizeof(U); ++i)
    value |= static_cast<U>(std::to_integer<unsigned>(bytes[i]))
             << (8 * (big_endian ? sizeof(U) - 1 - i : i));
  return value;
}

// IEEE half: torch's float16.
double half_value(std::uint16_t bits) {
  const double sign = (bits & 0x8000) ? -1.0 : 1.0;
  const int exponent = (bits >> 10) & 0x1f;
  const int mantissa = bits & 0x3ff;
  if (exponent == 0) return sign * std::ldexp(mantissa, -24);
  if (exponent == 0x1f)
    return mantissa ? std::numeric_limits<double>::quiet_NaN()
                    : sign * std::numeric_limits<double>::infinity();
  return sign * std::ldexp(mantissa + 1024, exponent - 25);
}

template <Element E>
double element_value(const std::byte* bytes, bool big_endian) {
  if constexpr (E == Element::uint8) return std::to_integer<std::uint8_t>(bytes[0]);
  if constexpr (E == Element::int8) return static_cast<std::int8_t>(std::to_integer<int>(bytes[0]));
  if constexpr (E == Element::boolean) return std::to_integer<std::uint8_t>(bytes[0]) != 0;
  if constexpr (E == Element::int16)
    return static_cast<std::int16_t>(load_unsigned<std::uint16_t>(bytes, big_endian));
  if constexpr (E == Element::int32)
    return static_cast<std::int32_t>(load_unsigned<std::uint32_t>(bytes, big_endian));
  if constexpr (E == Element::int64)
    return static_cast<double>(
        static_cast<std::int64_t>(load_unsigned<std::uint64_t>(bytes, big_endian)));
  if constexpr (E == Element::float16)
    return half_value(load_unsigned<std::uint16_t>(bytes, big_endian));
  if constexpr (E == Element::bfloat16)
    return std::bit_cast<float>(std::uint32_t{load_unsigned<std::uint16_t>(bytes, big_endian)}
                                << 16);
  if constexpr (E == Element::float32)
    return std::bit_cast<float>(load_unsigned<std::uint32_t>(bytes, big_endian));
  if constexpr (E == Element::float64)
    return std::bit_cast<double>(load_unsigned<std::uint64_t>(bytes, big_endian));
}

struct Accumulator {
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();
  long double sum = 0;
  std::uint64_t finite = 0, non_nan = 0, nan = 0, inf = 0;

  void add(double value) {
    if (std::isnan(value)) {
      ++nan;
      return;
    }
    ++non_nan;
    min = std::min(min, value);
    max = std::max(max, value);
    if (std::isinf(value)) {
      ++inf;
      return;
    }
    ++finite;
    sum += value;
  }
};

template <Element E>
void visit(const Walk& walk, StorageWindow& window, bool big_endian, Accumulator& total) {
  if (walk.dims.empty()) {
    total.add(element_value<E>(window.element(walk.base), big_endian));
    return;
  }
  const std::size_t outer = walk.dims.size() - 1;
  const Dim inner = walk.dims.back();
  std::vector<std::int64_t> index(outer, 0);
  std::int64_t offset = walk.base;  // of the current row
  while (true) {
    for (std::int64_t i = 0; i < inner.size; ++i)
      total.add(element_value<E>(window.element(offset + i * inner.stride), big_endian));
    // The next row: an odometer over the outer dimensions, the last one turning fastest.
    std::size_t d = outer;
    while (true) {
      if (d == 0) return;  // every outer dimension turned over: the walk is done
      --d;
      offset += walk.dims[d].stride;
      if (++index[d] < walk.dims[d].size) break;
      offset -= walk.dims[d].size * walk.dims[d].stride;
      index[d] = 0;
    }
  }
}

void visit_all(Element element, const Walk& walk, StorageWindow& window, bool big_endian,
               Accumulator& total) {
  switch (element) {
    case Element::uint8:
      return visit<Element::uint8>(walk, window, big_endian, total);
    case Element::int8:
      return visit<Element::int8>(walk, window, big_endian, total);
    case Element::int16:
      return visit<Element::int16>(walk, window, big_endian, total);
    case Element::int32:
      return visit<Element::int32>(walk, window, big_endian, total);
    case Element::int64:
      return visit<Element::int64>(walk, window, big_endian, total);
    case Element::float16:
      return visit<Element::float16>(walk, window, big_endian, total);
    case Element::float32:
      return visit<Element::float32>(walk, window, big_endian, total);
    case Element::float64:
      return visit<Element::float64>(walk, window, big_endian, total);
    case Element::boolean:
      return visit<Element::boolean>(walk, window, big_endian, total);
    case Element::bfloat16:
      return visit<Element::bfloat16>(walk, window, big_endian, total);
  }
}

}  // namespace

Parsed<ElementStats> summarize_elements(const RandomAccess& storage, const TensorLayout& layout,
                                        const StatsLimits& limits) {
  if (layout.size.size() != layout.stride.size())
    return fail(fmt::format("a size of {} dimensions with a stride of {}", layout.size.size(),
                            layout.stride.size()));
  const auto walk = plan(layout);
  if (!walk) return tl::unexpected(walk.error());
  ElementStats stats;
  stats.numel = walk->numel;
  if (walk->numel == 0) {
    stats.summarized = true;
    return stats;
  }
  const std::uint64_t span =
      static_cast<std::uint64_t>(walk->last - walk->first + 1) * layout.type.element_size;
  if (walk->visits > limits.max_elements) {
    stats.skipped = fmt::format("{} elements to visit, more than the {} this reader summarizes",
                                walk->visits, limits.max_elements);
    return stats;
  }
  if (walk->overlapping && span > limits.max_overlapping_span) {
    stats.skipped = fmt::format(
        "its stride reaches some elements more than once over a span of {}, more than the {} "
        "such a view is summarized from",
        util::format_size(span), util::format_size(limits.max_overlapping_span));
    return stats;
  }
  try {
    // A view that reaches elements more than once does not reach them in order: its span is
    // read whole, once, instead of chunks again and again.
    StorageWindow window(storage, layout.type.element_size, walk->first, walk->last,
                         walk->overlapping ? span : limits.chunk_bytes);
    Accumulator total;
    visit_all(layout.type.element, *walk, window, layout.big_endian, total);
    stats.bytes_read = window.bytes_read();
    const auto times = static_cast<std::uint64_t>(walk->multiplicity);
    stats.nan_count = static_cast<std::int64_t>(total.nan * times);
    stats.inf_count = static_cast<std::int64_t>(total.inf * times);
    if (total.non_nan > 0) stats.min = total.min, stats.max = total.max;
    if (total.finite > 0)
      stats.mean = static_cast<double>(total.sum / static_cast<long double>(total.finite));
    stats.summarized = true;
  } catch (const util::ReadError& error) {
    return fail(std::string("cannot read the storage: ") + error.what());
  }
  return stats;
}

}  // namespace aoti::parsers::pt
