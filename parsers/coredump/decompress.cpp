#include "parsers/coredump/decompress.hpp"
#include "parsers/coredump/decode_io.hpp"
#include "parsers/coredump/private_file.hpp"
#include "parsers/coredump/xz_decode.hpp"
#include "parsers/coredump/zstd_decode.hpp"
#include "util/expected.hpp"
#include "util/format_size.hpp"
#include "util/open_file.hpp"

#include <lzma.h>
#include <unistd.h>
#include <zstd.h>

#include <cstring>
#include <memory>
#include <optional>

namespace aoti::parsers::coredump {

namespace {

constexpr unsigned char k_xz_magic[] = {0xfd, '7', 'z', 'X', 'Z', 0x00};
constexpr unsigned char k_zstd_magic[] = {0x28, 0xb5, 0x2f, 0xfd};

bool starts_with(std::string_view head, const unsigned char* magic, std::size_t size) {
  return head.size() >= size && std::memcmp(head.data(), magic, size) == 0;
}

}  // namespace

Compression detect_compression(std::string_view head) {
  if (starts_with(head, k_xz_magic, sizeof k_xz_magic)) return Compression::xz;
  if (starts_with(head, k_zstd_magic, sizeof k_zstd_magic)) return Compression::zstd;
  return Compression::none;
}

std::string_view to_string(Compression compression) {
  switch (compression) {
    case Compression::xz:
      return "xz";
    case Compression::zstd:
      return "zstd";
    case Compression::none:
      break;
  }
  return "";
}

std::string plain_head(std::string_view head, std::size_t limit) {
  const Compression compression = detect_compression(head);
  if (compression == Compression::none) return std::string(head.substr(0, limit));
  std::string out(limit, '\0');
  std::size_t produced = 0;
  if (compression == Compression::xz) {
    lzma_stream stream = LZMA_STREAM_INIT;
    if (lzma_stream_decoder(&stream, DecodeLimits{}.max_memory, 0) != LZMA_OK) return {};
    stream.next_in = reinterpret_cast<const std::uint8_t*>(head.data());
    stream.avail_in = head.size();
    stream.next_out = reinterpret_cast<std::uint8_t*>(out.data());
    stream.avail_out = out.size();
    [[maybe_unused]] const lzma_ret ret =
        lzma_code(&stream, LZMA_RUN);  // an error just means fewer bytes: a sniff
    produced = out.size() - stream.avail_out;
    lzma_end(&stream);
  } else if (compression == Compression::zstd) {
    std::unique_ptr<ZSTD_DStream, std::size_t (*)(ZSTD_DStream*)> stream(ZSTD_createDStream(),
                                                                         ZSTD_freeDStream);
    if (!stream) return {};
    ZSTD_inBuffer input{head.data(), head.size(), 0};
    ZSTD_outBuffer output{out.data(), out.size(), 0};
    while (input.pos < input.size && output.pos < output.size) {
      const std::size_t ret = ZSTD_decompressStream(stream.get(), &output, &input);
      if (ZSTD_isError(ret) || ret == 0) break;
    }
    produced = output.pos;
  }
  out.resize(produced);
  return out;
}

Parsed<Decompressed> decompress_to_private_file(const std::filesystem::path& path,
                                                Compression compression,
                                                const DecodeLimits& limits) {
  auto opened = util::open_regular_file(path);
  if (!opened) return fail("cannot open " + path.string() + ": " + opened.error());
  const util::Fd in = std::move(*opened);
  TRY_ASSIGN(util::Fd out, create_private_file());
  Sink sink{out.get(), limits.max_bytes, 0, {}, false, false, {}, std::nullopt};
  std::string one_thread_reason = "zstd frames are decoded in sequence";
  if (compression == Compression::xz) {
    // Block by block whenever the index can be read, on one thread or several: our LZMA2 decoder
    // takes the blocks it can (a single-block `xz core` too), where liblzma's stream decoder
    // below would copy every run of zeros a byte at a time.
    if (const auto blocks = xz_blocks(in.get(), limits.max_memory); blocks && !blocks->empty()) {
      TRY_ASSIGN(Decompressed decoded, decode_xz_blocks(in.get(), std::move(out), *blocks, limits));
      decoded.one_thread_reason = blocks->size() == 1   ? "it is a single xz block"
                                  : limits.threads <= 1 ? "one decoder thread was asked for"
                                                        : "";
      return decoded;
    }
    // An unreadable index (a cut file) says nothing of the blocks: liblzma's threaded decoder
    // below still splits those it finds.
    one_thread_reason = "";
  }
  TRY(compression == Compression::xz ? decode_xz(in.get(), sink, limits)
                                     : decode_zstd(in.get(), sink));
  if (sink.size == 0)
    return fail("cannot decompress " + std::string(to_string(compression)) +
                " data: " + (sink.problem.empty() ? "the stream is empty" : sink.problem));
  TRY(finish_sparse(out.get(), sink.size));
  return Decompressed{std::move(out), sink.size, sink.problem, sink.past_declared_end,
                      std::move(one_thread_reason)};
}

Parsed<OpenedDump> open_dump(const std::filesystem::path& path, const std::string& display,
                             std::string_view what, const DecodeLimits& limits) {
  auto opened = util::open_regular_file(path);
  if (!opened) return fail("cannot open " + display + ": " + opened.error());
  util::Fd file = std::move(*opened);
  char head[8] = {};
  const ssize_t got = ::pread(file.get(), head, sizeof head, 0);
  OpenedDump out;
  out.compression = detect_compression({head, got > 0 ? static_cast<std::size_t>(got) : 0});
  if (out.compression != Compression::none) {
    auto decompressed = decompress_to_private_file(path, out.compression, limits);
    if (!decompressed) return fail(display + ": " + decompressed.error().message);
    out.health.push_back("decompressed " + std::string(to_string(out.compression)) + " " +
                         std::string(what) + " to a private temporary file (" +
                         util::format_mib(decompressed->size) + ")");
    if (decompressed->past_declared_end)
      out.health.push_back("the compressed " + std::string(what) + " was " + decompressed->problem);
    else if (!decompressed->problem.empty())
      out.health.push_back("the compressed " + std::string(what) +
                           " is incomplete: " + decompressed->problem + "; analyzed the " +
                           util::format_mib(decompressed->size) + " decoded before that");
    out.one_thread_reason = std::move(decompressed->one_thread_reason);
    file = std::move(decompressed->file);
  }
  out.file = std::move(file);
  return out;
}

}  // namespace aoti::parsers::coredump
