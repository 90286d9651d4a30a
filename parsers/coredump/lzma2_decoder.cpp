// The format: the .xz file format's LZMA2 section, and the LZMA decoder of xz-embedded and liblzma,
// whose checks each step follows.
#include "parsers/coredump/lzma2_decoder.hpp"

#include <algorithm>
#include <cstring>

namespace aoti::parsers::coredump {

namespace {

constexpr std::uint32_t k_max_chunk_output = 2u << 20;  // 21 bits of size, plus one
constexpr std::uint32_t k_max_chunk_input = 1u << 16;   // 16 bits of size, plus one
constexpr std::uint32_t k_min_dict_size = 4096;
constexpr unsigned k_probability_bits = 11;
constexpr std::uint16_t k_probability_half = 1 << (k_probability_bits - 1);
constexpr unsigned k_move_bits = 5;
constexpr unsigned k_literal_states = 7;  // states below this one follow a literal
constexpr unsigned k_end_of_distance_model = 14;
constexpr std::uint32_t k_stride = 16;
constexpr std::uint32_t k_max_match_copy = 288;  // the longest match, 273, in whole strides

// The range decoder over one chunk's compressed bytes, all in memory. Reading past them is corrupt
// data: it feeds zeros from then on and says so at the end, so the loop needs no check per byte.
// Everything is forced inline: an out-of-line call (GCC left decode_length out of line) takes the
// decoder's address, and its state then lives on the stack instead of in registers.
#define AOTI_INLINE [[gnu::always_inline]] inline
struct RangeDecoder {
  const std::uint8_t* in;
  const std::uint8_t* end;
  std::uint32_t range = 0xFFFFFFFF;
  std::uint32_t code = 0;
  bool overrun = false;

  AOTI_INLINE void normalize() {
    if (range < (1u << 24)) {
      range <<= 8;
      code <<= 8;
      if (in < end)
        code |= *in++;
      else
        overrun = true;
    }
  }
  AOTI_INLINE unsigned bit(std::uint16_t& probability) {
    normalize();
    const std::uint32_t bound = (range >> k_probability_bits) * probability;
    if (code < bound) {
      range = bound;
      probability += ((1u << k_probability_bits) - probability) >> k_move_bits;
      return 0;
    }
    range -= bound;
    code -= bound;
    probability -= probability >> k_move_bits;
    return 1;
  }
  // `bits` bits, most significant first, through a binary tree of probabilities (1-based).
  template <std::size_t N>
  AOTI_INLINE unsigned tree(std::array<std::uint16_t, N>& probabilities, unsigned bits) {
    unsigned symbol = 1;
    for (unsigned i = 0; i < bits; ++i) symbol = (symbol << 1) | bit(probabilities[symbol]);
    return symbol - (1u << bits);
  }
  // `bits` bits, least significant first, through the tree whose node 1 is probabilities[base].
  template <std::size_t N>
  AOTI_INLINE std::uint32_t reverse_tree(std::array<std::uint16_t, N>& probabilities,
                                         std::size_t base, unsigned bits) {
    unsigned symbol = 1;
    std::uint32_t value = 0;
    for (unsigned i = 0; i < bits; ++i) {
      const unsigned b = bit(probabilities[base + symbol - 1]);
      symbol = (symbol << 1) | b;
      value |= b << i;
    }
    return value;
  }
  // `bits` bits at probability one half, appended to `value`.
  AOTI_INLINE std::uint32_t direct(std::uint32_t value, unsigned bits) {
    for (unsigned i = 0; i < bits; ++i) {
      normalize();
      range >>= 1;
      code -= range;
      const std::uint32_t mask = 0u - (code >> 31);  // all ones when the bit is 0
      code += range & mask;
      value = (value << 1) + (mask + 1);
    }
    return value;
  }
};

template <class Arrays>
void fill_half(Arrays& arrays) {
  for (auto& array : arrays) std::fill(array.begin(), array.end(), k_probability_half);
}

AOTI_INLINE unsigned decode_length(RangeDecoder& rc, auto& model, unsigned pos_state) {
  if (!rc.bit(model.choice)) return 2 + rc.tree(model.low[pos_state], 3);
  if (!rc.bit(model.choice2)) return 10 + rc.tree(model.mid[pos_state], 3);
  return 18 + rc.tree(model.high, 8);
}

// Copies `length` bytes from `distance + 1` bytes back, in the circular `window` of `size` bytes,
// to `position` onwards. Distance 0 (a run of one byte, as zeros are) is a memset; a short pattern
// is copied in pieces that double, each from a whole number of patterns back; the rest is one
// memcpy per contiguous piece.
void copy_match(std::uint8_t* window, std::size_t size, std::size_t& position,
                std::uint32_t distance, std::uint32_t length) {
  std::size_t from = position > distance ? position - distance - 1 : position + size - distance - 1;
  while (length > 0) {
    const std::size_t piece = std::min<std::size_t>({length, size - position, size - from});
    std::uint8_t* to = window + position;
    if (from < position && position - from < piece) {  // overlaps itself: a repeating pattern
      std::size_t period = position - from;
      if (period == 1) {
        std::memset(to, window[from], piece);
      } else {
        for (std::size_t done = 0; done < piece;) {
          const std::size_t step = std::min(piece - done, period);
          std::memcpy(to + done, to + done - period, step);
          done += step;
          period += step;  // what is now written repeats the pattern too
        }
      }
    } else {
      std::memcpy(to, window + from, piece);
    }
    position += piece;
    from += piece;
    if (position == size) position = 0;
    if (from == size) from = 0;
    length -= static_cast<std::uint32_t>(piece);
  }
}

}  // namespace

std::uint64_t Lzma2Decoder::memory_usage(std::uint32_t dict_size) {
  return std::uint64_t{std::max(dict_size, k_min_dict_size)} + k_max_chunk_output +
         k_max_chunk_input + sizeof(Lzma2Decoder);
}

void Lzma2Decoder::reset_state() {
  fill_half(m_model.is_match);
  std::fill(m_model.is_rep.begin(), m_model.is_rep.end(), k_probability_half);
  std::fill(m_model.is_rep0.begin(), m_model.is_rep0.end(), k_probability_half);
  std::fill(m_model.is_rep1.begin(), m_model.is_rep1.end(), k_probability_half);
  std::fill(m_model.is_rep2.begin(), m_model.is_rep2.end(), k_probability_half);
  fill_half(m_model.is_rep0_long);
  fill_half(m_model.dist_slot);
  std::fill(m_model.dist_special.begin(), m_model.dist_special.end(), k_probability_half);
  std::fill(m_model.dist_align.begin(), m_model.dist_align.end(), k_probability_half);
  for (LengthModel* length : {&m_model.match_length, &m_model.rep_length}) {
    length->choice = length->choice2 = k_probability_half;
    fill_half(length->low);
    fill_half(length->mid);
    std::fill(length->high.begin(), length->high.end(), k_probability_half);
  }
  std::for_each_n(m_model.literal.begin(), std::size_t{1} << (m_lc + m_lp),
                  [](auto& probabilities) {
                    std::fill(probabilities.begin(), probabilities.end(), k_probability_half);
                  });
  m_state = 0;
  m_reps = {};
}

Lzma2Decoder::Status Lzma2Decoder::decode_lzma_chunk(const std::uint8_t* input,
                                                     std::size_t input_size,
                                                     std::uint32_t output_size,
                                                     std::uint32_t& produced) {
  produced = 0;
  // The range coder starts with a zero byte, then the first four bytes of its code.
  if (input_size < 5 || input[0] != 0) return Status::corrupt;
  RangeDecoder rc{input + 5, input + input_size};
  rc.code = (std::uint32_t{input[1]} << 24) | (std::uint32_t{input[2]} << 16) |
            (std::uint32_t{input[3]} << 8) | input[4];

  std::uint8_t* const window = m_window.get();
  const std::size_t window_size = m_window_size;
  // Kept in locals: every byte stored in the window could alias a member.
  std::size_t position = m_position;
  std::uint64_t since_reset = m_since_reset;
  const std::uint64_t start = since_reset;
  const std::uint64_t end = start + output_size;
  const std::uint32_t pos_mask = (1u << m_pb) - 1;
  const std::uint32_t literal_pos_mask = (1u << m_lp) - 1;
  const unsigned lc = m_lc;
  const std::uint32_t dict_size = m_dict_size;
  Model& model = m_model;
  unsigned state = m_state;
  std::uint32_t rep0 = m_reps[0], rep1 = m_reps[1], rep2 = m_reps[2], rep3 = m_reps[3];
  const auto byte_back = [&](std::uint32_t distance) {  // the byte `distance + 1` back
    return window[position > distance ? position - distance - 1
                                      : position + window_size - distance - 1];
  };
  // Each symbol's first byte: a symbol decoded past the input's end is garbage, dropped.
  std::uint64_t symbol_start = since_reset;
  const auto fail = [&](std::uint64_t good_until) {
    produced = static_cast<std::uint32_t>(good_until - start);
    return Status::corrupt;
  };
  while (since_reset < end) {
    if (rc.overrun) return fail(symbol_start);
    symbol_start = since_reset;
    const unsigned pos_state = static_cast<unsigned>(since_reset) & pos_mask;
    if (!rc.bit(model.is_match[state][pos_state])) {
      const unsigned previous = since_reset > 0 ? byte_back(0) : 0;
      auto& probabilities =
          model.literal[((static_cast<unsigned>(since_reset) & literal_pos_mask) << lc) +
                        (previous >> (8 - lc))];
      unsigned symbol = 1;
      if (state < k_literal_states) {
        while (symbol < 0x100) symbol = (symbol << 1) | rc.bit(probabilities[symbol]);
      } else {
        // After a match: the byte at rep0 guides the first bits, until one differs.
        if (rep0 >= since_reset) return fail(since_reset);
        unsigned match_byte = byte_back(rep0);
        unsigned offset = 0x100;
        while (symbol < 0x100) {
          match_byte <<= 1;
          const unsigned match_bit = match_byte & offset;
          const unsigned b = rc.bit(probabilities[offset + match_bit + symbol]);
          symbol = (symbol << 1) | b;
          offset &= b ? match_bit : ~match_bit;
        }
      }
      window[position] = static_cast<std::uint8_t>(symbol);
      if (++position == window_size) position = 0;
      ++since_reset;
      state = state < 4 ? 0 : state < 10 ? state - 3 : state - 6;
      continue;
    }
    std::uint32_t length;
    if (!rc.bit(model.is_rep[state])) {  // a match with a new distance
      rep3 = rep2;
      rep2 = rep1;
      rep1 = rep0;
      length = decode_length(rc, model.match_length, pos_state);
      state = state < k_literal_states ? 7 : 10;
      const unsigned slot = rc.tree(model.dist_slot[std::min(length - 2, 3u)], 6);
      if (slot < 4) {
        rep0 = slot;
      } else {
        const unsigned direct_bits = (slot >> 1) - 1;
        rep0 = (2 | (slot & 1)) << direct_bits;
        if (slot < k_end_of_distance_model) {
          rep0 += rc.reverse_tree(model.dist_special, rep0 - slot, direct_bits);
        } else {
          rep0 = rc.direct(2 | (slot & 1), direct_bits - 4) << 4;
          rep0 += rc.reverse_tree(model.dist_align, 1, 4);
        }
      }
      // 0xFFFFFFFF is the end-of-payload marker, which LZMA2 chunks never carry: it fails the
      // distance check below like any distance past the data.
    } else if (!rc.bit(model.is_rep0[state])) {
      if (!rc.bit(model.is_rep0_long[state][pos_state])) {  // one byte from rep0
        state = state < k_literal_states ? 9 : 11;
        if (rep0 >= since_reset) return fail(since_reset);
        window[position] = byte_back(rep0);
        if (++position == window_size) position = 0;
        ++since_reset;
        continue;
      }
      length = decode_length(rc, model.rep_length, pos_state);
      state = state < k_literal_states ? 8 : 11;
    } else {
      std::uint32_t distance;
      if (!rc.bit(model.is_rep1[state])) {
        distance = rep1;
      } else {
        if (!rc.bit(model.is_rep2[state])) {
          distance = rep2;
        } else {
          distance = rep3;
          rep3 = rep2;
        }
        rep2 = rep1;
      }
      rep1 = rep0;
      rep0 = distance;
      length = decode_length(rc, model.rep_length, pos_state);
      state = state < k_literal_states ? 8 : 11;
    }
    // liblzma's checks: a distance within the data since the reset and the dictionary, and a
    // match that ends inside the chunk.
    if (rep0 >= since_reset || rep0 >= dict_size || length > end - since_reset)
      return fail(rc.overrun ? symbol_start : since_reset);
    if (rep0 >= k_stride - 1 && position > rep0 && position + k_max_match_copy <= window_size) {
      // Most matches are far enough back to copy in fixed 16-byte steps (inlined, unlike a call
      // to memcpy with a variable size): each step's source ends where its destination starts, so
      // it reads only final bytes. The bytes past the match are overwritten before anything reads
      // them (they are the window's oldest, past the dictionary, or the chunk's next).
      std::uint8_t* to = window + position;
      const std::uint8_t* from = to - rep0 - 1;
      for (std::uint32_t done = 0; done < length; done += k_stride)
        std::memcpy(to + done, from + done, k_stride);
      position += length;
      if (position == window_size) position = 0;
    } else {
      copy_match(window, window_size, position, rep0, length);
    }
    since_reset += length;
  }
  m_position = position;
  m_since_reset = since_reset;
  m_state = state;
  m_reps = {rep0, rep1, rep2, rep3};
  // The encoder's last normalization wrote bytes the decoder reads only before a next bit.
  if (rc.overrun) return fail(symbol_start);
  produced = output_size;
  rc.normalize();
  if (rc.overrun || rc.in != rc.end || rc.code != 0) return Status::corrupt;
  return Status::end;
}

Lzma2Decoder::Status Lzma2Decoder::decode(std::uint32_t dict_size, const Read& read,
                                          const Emit& emit) {
  m_dict_size = std::max(dict_size, k_min_dict_size);
  const std::size_t window_size = std::size_t{m_dict_size} + k_max_chunk_output;
  if (m_window_size != window_size) {
    m_window.reset();  // the old one first: both at once could be 3 GiB
    m_window = std::make_unique_for_overwrite<std::uint8_t[]>(window_size);
    m_window_size = window_size;
  }
  m_position = 0;
  m_since_reset = 0;
  bool need_dict_reset = true;
  bool need_properties = true;
  const auto read_all = [&](std::uint8_t* into, std::size_t size) {
    return read(into, size) == size;
  };
  for (;;) {
    std::uint8_t control = 0;
    if (!read_all(&control, 1)) return Status::truncated;
    if (control == 0x00) return Status::end;
    if (control >= 0xE0 || control == 0x01) {  // the dictionary is reset
      need_dict_reset = false;
      need_properties = true;
      m_since_reset = 0;
    } else if (need_dict_reset) {
      return Status::corrupt;
    }
    const std::size_t chunk_start = m_position;
    std::uint32_t produced = 0;
    Status status = Status::end;
    if (control >= 0x80) {  // LZMA: sizes, then maybe new properties, then the range-coded data
      std::uint8_t sizes[4];
      if (!read_all(sizes, 4)) return Status::truncated;
      const std::uint32_t output_size =
          ((control & 0x1Fu) << 16) + (std::uint32_t{sizes[0]} << 8) + sizes[1] + 1;
      const std::size_t input_size = (std::size_t{sizes[2]} << 8) + sizes[3] + 1;
      if (control >= 0xC0) {
        std::uint8_t properties = 0;
        if (!read_all(&properties, 1)) return Status::truncated;
        if (properties > (4 * 5 + 4) * 9 + 8) return Status::corrupt;
        m_pb = properties / 45;
        m_lp = properties % 45 / 9;
        m_lc = properties % 9;
        if (m_lc + m_lp > 4) return Status::corrupt;
        need_properties = false;
        reset_state();
      } else if (need_properties) {
        return Status::corrupt;
      } else if (control >= 0xA0) {
        reset_state();
      }
      const std::size_t got = read(m_input.data(), input_size);
      status = decode_lzma_chunk(m_input.data(), got, output_size, produced);
      if (got < input_size) status = Status::truncated;
    } else {  // stored: its size, then its bytes
      if (control > 0x02) return Status::corrupt;
      std::uint8_t size[2];
      if (!read_all(size, 2)) return Status::truncated;
      const std::uint32_t output_size = (std::uint32_t{size[0]} << 8) + size[1] + 1;
      while (produced < output_size) {
        const std::size_t want =
            std::min<std::size_t>(output_size - produced, m_window_size - m_position);
        const std::size_t got = read(m_window.get() + m_position, want);
        m_position = (m_position + got) % m_window_size;
        m_since_reset += got;
        produced += static_cast<std::uint32_t>(got);
        if (got < want) {
          status = Status::truncated;
          break;
        }
      }
    }
    // The chunk's bytes, in one piece or two where the window wraps.
    const std::size_t first = std::min<std::size_t>(produced, m_window_size - chunk_start);
    if (first > 0 && !emit(m_window.get() + chunk_start, first)) return Status::end;
    if (first < produced && !emit(m_window.get(), produced - first)) return Status::end;
    if (status != Status::end) return status;
  }
}

}  // namespace aoti::parsers::coredump
