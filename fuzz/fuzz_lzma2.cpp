// Our LZMA2 decoder (the blocks of multi-block xz cores) against liblzma's on the same bytes: it
// must never crash, must refuse what liblzma refuses and accept what it accepts, with the same
// output. The first byte picks the dictionary size (4 KiB to 1 MiB: small ones wrap the window).
#include <lzma.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "parsers/coredump/lzma2_decoder.hpp"

namespace {
// Output past this is not compared (a few input bytes can declare megabytes of zeros).
constexpr std::size_t k_max_output = 4 << 20;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using aoti::parsers::coredump::Lzma2Decoder;
  if (size < 1) return 0;
  const std::uint32_t dict_size = 4096u << (data[0] % 9);
  const std::uint8_t* input = data + 1;
  const std::size_t input_size = size - 1;

  static Lzma2Decoder decoder;  // kept from input to input, as each thread keeps one
  std::vector<std::uint8_t> ours;
  std::size_t consumed = 0;
  bool over = false;
  const Lzma2Decoder::Status status = decoder.decode(
      dict_size,
      [&](std::uint8_t* into, std::size_t count) {
        count = std::min(count, input_size - consumed);
        if (count > 0) std::memcpy(into, input + consumed, count);
        consumed += count;
        return count;
      },
      [&](const std::uint8_t* bytes, std::size_t count) {
        over = ours.size() + count > k_max_output;
        if (!over) ours.insert(ours.end(), bytes, bytes + count);
        return !over;
      });
  if (over) return 0;

  lzma_options_lzma options{};
  options.dict_size = dict_size;
  lzma_filter filters[] = {{LZMA_FILTER_LZMA2, &options}, {LZMA_VLI_UNKNOWN, nullptr}};
  // Room for what we decoded and one chunk more: where we stopped early, liblzma must fail there.
  // The buffer and liblzma's dictionary are kept from input to input: allocating megabytes per
  // input cost most of each run.
  static const auto theirs =
      std::make_unique_for_overwrite<std::uint8_t[]>(k_max_output + (2 << 20) + 1);
  static lzma_stream stream = LZMA_STREAM_INIT;
  if (lzma_raw_decoder(&stream, filters) != LZMA_OK) __builtin_trap();
  stream.next_in = input;
  stream.avail_in = input_size;
  stream.next_out = theirs.get();
  stream.avail_out = ours.size() + (2 << 20) + 1;
  lzma_ret ret = LZMA_OK;
  while (ret == LZMA_OK) ret = lzma_code(&stream, LZMA_FINISH);  // until it ends or stalls
  if (ret == LZMA_STREAM_END) ret = LZMA_OK;
  const std::size_t in_pos = input_size - stream.avail_in;
  const std::size_t out_pos = static_cast<std::size_t>(stream.next_out - theirs.get());
  const bool ours_ok = status == Lzma2Decoder::Status::end;
  if (ours_ok != (ret == LZMA_OK)) __builtin_trap();
  if (ours_ok && (out_pos != ours.size() || in_pos != consumed ||
                  (!ours.empty() && std::memcmp(theirs.get(), ours.data(), ours.size()) != 0)))
    __builtin_trap();
  return 0;
}
