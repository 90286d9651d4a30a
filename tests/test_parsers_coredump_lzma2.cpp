// Our LZMA2 decoder against liblzma's: the same bytes from what liblzma's encoder writes (every
// kind of chunk, properties, dictionary sizes, a window that wraps), and the same verdict on
// corrupt or cut streams.
#include <doctest/doctest.h>

#include <lzma.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "parsers/coredump/lzma2_decoder.hpp"

namespace {

using aoti::parsers::coredump::Lzma2Decoder;
using Bytes = std::vector<std::uint8_t>;

lzma_options_lzma options_for(std::uint32_t preset, std::uint32_t dict_size) {
  lzma_options_lzma options{};
  REQUIRE_FALSE(lzma_lzma_preset(&options, preset));
  options.dict_size = dict_size;
  return options;
}

Bytes encode(const Bytes& data, const lzma_options_lzma& options) {
  lzma_filter filters[] = {{LZMA_FILTER_LZMA2, const_cast<lzma_options_lzma*>(&options)},
                           {LZMA_VLI_UNKNOWN, nullptr}};
  Bytes out(data.size() + data.size() / 2 + 4096);
  std::size_t written = 0;
  REQUIRE(lzma_raw_buffer_encode(filters, nullptr, data.data(), data.size(), out.data(), &written,
                                 out.size()) == LZMA_OK);
  out.resize(written);
  return out;
}

struct Decoded {
  Lzma2Decoder::Status status;
  Bytes bytes;
  std::size_t consumed = 0;
  std::size_t largest_piece = 0;
};

Decoded ours(Lzma2Decoder& decoder, const Bytes& compressed, std::uint32_t dict_size) {
  Decoded out;
  out.status = decoder.decode(
      dict_size,
      [&](std::uint8_t* into, std::size_t size) {
        size = std::min(size, compressed.size() - out.consumed);
        if (size > 0) std::memcpy(into, compressed.data() + out.consumed, size);
        out.consumed += size;
        return size;
      },
      [&](const std::uint8_t* data, std::size_t size) {
        out.bytes.insert(out.bytes.end(), data, data + size);
        out.largest_piece = std::max(out.largest_piece, size);
        return true;
      });
  return out;
}

// liblzma's raw decoder on the same bytes: whether it reaches the end marker, and what it gives.
bool theirs(const Bytes& compressed, std::uint32_t dict_size, std::size_t max_size, Bytes& out) {
  lzma_options_lzma options = options_for(0, dict_size);
  lzma_filter filters[] = {{LZMA_FILTER_LZMA2, &options}, {LZMA_VLI_UNKNOWN, nullptr}};
  out.assign(max_size, 0);
  std::size_t in_pos = 0, out_pos = 0;
  const lzma_ret ret = lzma_raw_buffer_decode(filters, nullptr, compressed.data(), &in_pos,
                                              compressed.size(), out.data(), &out_pos, out.size());
  out.resize(out_pos);
  return ret == LZMA_OK;
}

// What liblzma's streaming raw decoder hands out of a stream cut short, before it says so.
Bytes theirs_before_the_cut(const Bytes& compressed, std::uint32_t dict_size) {
  lzma_options_lzma options = options_for(0, dict_size);
  lzma_filter filters[] = {{LZMA_FILTER_LZMA2, &options}, {LZMA_VLI_UNKNOWN, nullptr}};
  lzma_stream stream = LZMA_STREAM_INIT;
  REQUIRE(lzma_raw_decoder(&stream, filters) == LZMA_OK);
  Bytes out, buffer(1 << 16);
  stream.next_in = compressed.data();
  stream.avail_in = compressed.size();
  for (lzma_ret ret = LZMA_OK; ret == LZMA_OK;) {
    stream.next_out = buffer.data();
    stream.avail_out = buffer.size();
    ret = lzma_code(&stream, LZMA_RUN);
    out.insert(out.end(), buffer.data(), buffer.data() + buffer.size() - stream.avail_out);
    if (stream.avail_in == 0 && stream.avail_out > 0) break;
  }
  lzma_end(&stream);
  return out;
}

Bytes zeros(std::size_t size) { return Bytes(size, 0); }

Bytes random_bytes(std::size_t size, std::uint32_t seed) {
  std::mt19937 random(seed);
  Bytes out(size);
  for (auto& b : out) b = static_cast<std::uint8_t>(random());
  return out;
}

// What a core looks like to a compressor: zero runs, short repeating patterns, text, pointers,
// and stretches of noise.
Bytes core_like(std::size_t size, std::uint32_t seed) {
  std::mt19937 random(seed);
  Bytes out;
  while (out.size() < size) {
    const std::size_t run = 1 + random() % 20000;
    switch (random() % 5) {
      case 0:
        out.insert(out.end(), run, 0);
        break;
      case 1: {
        const std::size_t period = 2 + random() % 15;
        for (std::size_t i = 0; i < run; ++i) out.push_back(static_cast<std::uint8_t>(i % period));
        break;
      }
      case 2:
        for (std::size_t i = 0; i < run; ++i) out.push_back("torch::aot_inductor "[i % 20]);
        break;
      case 3:
        for (std::size_t i = 0; i < run / 8; ++i) {
          const std::uint64_t pointer = 0x7f0000000000ull + (random() % 4096) * 16;
          out.insert(out.end(), reinterpret_cast<const std::uint8_t*>(&pointer),
                     reinterpret_cast<const std::uint8_t*>(&pointer) + 8);
        }
        break;
      default:
        for (std::size_t i = 0; i < run % 3000; ++i)
          out.push_back(static_cast<std::uint8_t>(random()));
    }
  }
  out.resize(size);
  return out;
}

}  // namespace

TEST_CASE("lzma2: what liblzma encodes decodes to the same bytes") {
  Lzma2Decoder decoder;  // one for every stream, as a thread keeps one for its blocks
  struct Case {
    const char* what;
    Bytes data;
  };
  const Case cases[] = {
      {"zeros across several chunks", zeros(9 << 20)},
      {"noise (stored chunks)", random_bytes(1 << 20, 1)},
      {"a core-like mix", core_like(3 << 20, 2)},
      {"one byte", Bytes{42}},
  };
  for (const Case& c : cases) {
    for (const std::uint32_t preset : {0u, 6u}) {
      for (const std::uint32_t dict_size : {4096u, 1u << 16, 8u << 20}) {
        CAPTURE(c.what);
        CAPTURE(preset);
        CAPTURE(dict_size);
        const Bytes compressed = encode(c.data, options_for(preset, dict_size));
        const Decoded decoded = ours(decoder, compressed, dict_size);
        CHECK(decoded.status == Lzma2Decoder::Status::end);
        CHECK(decoded.consumed == compressed.size());
        CHECK(decoded.largest_piece <= (2u << 20));
        CHECK(decoded.bytes == c.data);  // a small dictionary: the window wraps many times
      }
    }
  }
  const Bytes mix = core_like(1 << 20, 7);
  const auto extreme = options_for(9 | LZMA_PRESET_EXTREME, 1 << 20);
  CHECK(ours(decoder, encode(mix, extreme), 1 << 20).bytes == mix);
}

TEST_CASE("lzma2: every lc, lp and pb liblzma allows") {
  Lzma2Decoder decoder;
  const Bytes data = core_like(256 << 10, 3);
  for (std::uint32_t lc = 0; lc <= 4; ++lc)
    for (std::uint32_t lp = 0; lc + lp <= 4; ++lp)
      for (std::uint32_t pb = 0; pb <= 4; pb += 2) {
        CAPTURE(lc);
        CAPTURE(lp);
        CAPTURE(pb);
        lzma_options_lzma options = options_for(1, 1 << 20);
        options.lc = lc;
        options.lp = lp;
        options.pb = pb;
        const Decoded decoded = ours(decoder, encode(data, options), 1 << 20);
        CHECK(decoded.status == Lzma2Decoder::Status::end);
        CHECK(decoded.bytes == data);
      }
}

TEST_CASE("lzma2: emit can stop decoding at a chunk") {
  Lzma2Decoder decoder;
  const Bytes compressed = encode(zeros(8 << 20), options_for(6, 1 << 20));
  std::size_t pieces = 0, read = 0;
  const auto status = decoder.decode(
      1 << 20,
      [&](std::uint8_t* into, std::size_t size) {
        std::memcpy(into, compressed.data() + read, size);
        read += size;
        return size;
      },
      [&](const std::uint8_t*, std::size_t) { return ++pieces < 2; });
  CHECK(status == Lzma2Decoder::Status::end);
  CHECK(pieces == 2);
  CHECK(read < compressed.size());
}

TEST_CASE("lzma2: corrupt and cut streams get liblzma's verdict, never a crash") {
  Lzma2Decoder decoder;
  const Bytes data = core_like(128 << 10, 4);
  constexpr std::uint32_t k_dict = 64 << 10;
  const Bytes compressed = encode(data, options_for(6, k_dict));
  std::mt19937 random(5);
  int both_ok = 0, both_failed = 0;
  for (int trial = 0; trial < 600; ++trial) {
    Bytes mutated = compressed;
    const int kind = trial % 3;
    if (kind == 0) {
      mutated.resize(random() % compressed.size());  // cut
    } else if (kind == 1) {
      mutated[random() % mutated.size()] ^= static_cast<std::uint8_t>(1u << (random() % 8));
    } else {
      // A chunk header or the first bytes: the control byte, sizes and properties.
      mutated[random() % std::min<std::size_t>(mutated.size(), 8)] =
          static_cast<std::uint8_t>(random());
    }
    CAPTURE(trial);
    const Decoded decoded = ours(decoder, mutated, k_dict);
    Bytes expected;
    const bool ok = theirs(mutated, k_dict, data.size() + (4 << 20), expected);
    CHECK((decoded.status == Lzma2Decoder::Status::end) == ok);
    if (ok) {
      CHECK(decoded.bytes == expected);
      ++both_ok;
    } else {
      ++both_failed;
    }
  }
  CHECK(both_failed > 0);
  MESSAGE("mutations decoded by both: ", both_ok, ", refused by both: ", both_failed);
}

TEST_CASE("lzma2: a cut stream gives every byte decoded before the cut, as liblzma does") {
  Lzma2Decoder decoder;
  const Bytes data = core_like(3 << 20, 8);
  const Bytes compressed = encode(data, options_for(6, 1 << 20));
  for (const double fraction : {0.2, 0.5, 0.9}) {
    CAPTURE(fraction);
    const Bytes cut(compressed.begin(),
                    compressed.begin() + static_cast<std::ptrdiff_t>(compressed.size() * fraction));
    const Decoded decoded = ours(decoder, cut, 1 << 20);
    CHECK(decoded.status == Lzma2Decoder::Status::truncated);
    REQUIRE(decoded.bytes.size() < data.size());
    CHECK(std::equal(decoded.bytes.begin(), decoded.bytes.end(), data.begin()));
    // liblzma may hold back the last symbols it decoded; ours no more than the one it was in.
    const Bytes expected = theirs_before_the_cut(cut, 1 << 20);
    CHECK(decoded.bytes.size() + 273 >= expected.size());
    CHECK(decoded.bytes.size() > expected.size() / 2);
  }
}

TEST_CASE("lzma2: a stream must begin with a dictionary reset") {
  Lzma2Decoder decoder;
  Bytes compressed = encode(core_like(100000, 6), options_for(6, 1 << 20));
  REQUIRE((compressed[0] & 0xE0) == 0xE0);  // LZMA, dictionary reset, new properties
  compressed[0] &= ~0x20;                   // the same without the dictionary reset
  CHECK(ours(decoder, compressed, 1 << 20).status == Lzma2Decoder::Status::corrupt);
  CHECK(ours(decoder, Bytes{0x02, 0x00, 0x00, 0x41}, 1 << 20).status ==
        Lzma2Decoder::Status::corrupt);
  CHECK(ours(decoder, Bytes{0x01, 0x00, 0x00, 0x41, 0x00}, 1 << 20).bytes == Bytes{0x41});
  CHECK(ours(decoder, Bytes{0x01, 0x00, 0x05}, 1 << 20).status == Lzma2Decoder::Status::truncated);
}
