// A raw LZMA2 decoder: the compressed data of an xz block whose only filter is LZMA2 (what `xz`
// writes by default). xz_decode.cpp keeps liblzma for everything around it (stream and block
// headers, the index, other filters and SHA-256 checks) and for single-block streams.
//
// Why not liblzma here: Debian 12's liblzma (5.4.1) copies every match a byte at a time, each byte
// read right after the previous one was stored. A run of zeros (most of a core: unused stack, heap,
// padding) is a chain of distance-1 matches, so it decodes at about 370 MB/s: 146 MiB of zeros take
// it 0.40 s of the 0.58 s that `xz -dc` needs for the corpus core. This decoder fills such a run
// with memset (a short repeating pattern with memcpy, doubling), and writes into a window it hands
// out one LZMA2 chunk at a time. Its validation is liblzma's: the same control bytes, properties,
// distances, sizes and range-coder end state are refused.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace aoti::parsers::coredump {

class Lzma2Decoder {
 public:
  enum class Status {
    end,        // the end marker was reached; or `emit` asked to stop
    corrupt,    // the data breaks the format
    truncated,  // `read` ran out before the end marker
  };
  // Fills up to `size` bytes (at most 65,536) of compressed input at `into`; returns how many, less
  // only where the input ends.
  using Read = std::function<std::size_t(std::uint8_t* into, std::size_t size)>;
  // Takes decoded bytes, in order; false to stop decoding.
  using Emit = std::function<bool(const std::uint8_t* data, std::size_t size)>;

  // What decode() allocates for a dictionary of `dict_size` bytes (kept for the next decode()).
  static std::uint64_t memory_usage(std::uint32_t dict_size);

  // Decodes one LZMA2 stream from its first chunk (which must reset the dictionary) to its end
  // marker. `dict_size` is the block header's; distances past it are corrupt data. Emits each chunk
  // once decoded; a chunk that breaks, or is cut, is emitted up to the last byte decoded before
  // that, as liblzma hands out what it decoded before it notices: a cut core keeps its last pages.
  Status decode(std::uint32_t dict_size, const Read& read, const Emit& emit);

 private:
  using Probability = std::uint16_t;
  struct LengthModel {
    Probability choice;
    Probability choice2;
    std::array<std::array<Probability, 8>, 16> low;
    std::array<std::array<Probability, 8>, 16> mid;
    std::array<Probability, 256> high;
  };
  // The adaptive probabilities of LZMA, all reset to one half together.
  struct Model {
    std::array<std::array<Probability, 16>, 12> is_match;
    std::array<Probability, 12> is_rep;
    std::array<Probability, 12> is_rep0;
    std::array<Probability, 12> is_rep1;
    std::array<Probability, 12> is_rep2;
    std::array<std::array<Probability, 16>, 12> is_rep0_long;
    std::array<std::array<Probability, 64>, 4> dist_slot;
    std::array<Probability, 114> dist_special;  // distance slots 4 to 13
    std::array<Probability, 16> dist_align;
    LengthModel match_length;
    LengthModel rep_length;
    std::array<std::array<Probability, 0x300>, 16> literal;  // 1 << (lc + lp) used, lc + lp <= 4
  };

  void reset_state();
  // One LZMA chunk: `input` whole, `output_size` bytes at m_position onwards; `produced` says how
  // many were decoded, all of them unless it fails.
  Status decode_lzma_chunk(const std::uint8_t* input, std::size_t input_size,
                           std::uint32_t output_size, std::uint32_t& produced);

  // Circular: the dictionary, then room for one chunk. Never cleared: only bytes written since the
  // last dictionary reset are read (the distance checks), and a new window costs no page until
  // used.
  std::unique_ptr<std::uint8_t[]> m_window;
  std::size_t m_window_size = 0;
  std::vector<std::uint8_t> m_input = std::vector<std::uint8_t>(1 << 16);  // one chunk's
  std::size_t m_position = 0;       // where the next byte goes in m_window
  std::uint64_t m_since_reset = 0;  // bytes decoded since the dictionary was reset
  std::uint32_t m_dict_size = 0;
  // Properties (lc, lp, pb) and state.
  unsigned m_lc = 0;
  unsigned m_lp = 0;
  unsigned m_pb = 0;
  unsigned m_state = 0;
  std::array<std::uint32_t, 4> m_reps{};
  Model m_model{};
};

}  // namespace aoti::parsers::coredump
