#include "parsers/coredump/decompress.hpp"
#include "parsers/coredump/private_file.hpp"
#include "util/errno_text.hpp"
#include "util/expected.hpp"
#include "util/format_size.hpp"
#include "util/open_file.hpp"

#include <fcntl.h>
#include <lzma.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

namespace aoti::parsers::coredump {

namespace {

constexpr unsigned char k_xz_magic[] = {0xfd, '7', 'z', 'X', 'Z', 0x00};
constexpr unsigned char k_zstd_magic[] = {0x28, 0xb5, 0x2f, 0xfd};
constexpr std::size_t k_chunk = 1 << 20;

bool starts_with(std::string_view head, const unsigned char* magic, std::size_t size) {
  return head.size() >= size && std::memcmp(head.data(), magic, size) == 0;
}

std::string lzma_error(lzma_ret ret) {
  switch (ret) {
    case LZMA_FORMAT_ERROR:
      return "not an xz stream";
    case LZMA_OPTIONS_ERROR:
      return "unsupported xz options";
    case LZMA_DATA_ERROR:
      return "corrupt xz data";
    case LZMA_BUF_ERROR:
      return "the xz stream ends early (the file was cut)";
    case LZMA_MEM_ERROR:
      return "out of memory while decoding xz";
    case LZMA_MEMLIMIT_ERROR:
      return "xz memory limit reached";
    default:
      return "xz decoder error " + std::to_string(static_cast<int>(ret));
  }
}

// Reads the compressed file in chunks and hands each to `feed(data, size, at_end)`, which
// returns an error text to stop ("" to go on).
template <class Feed>
Parsed<void> for_each_chunk(int fd, Feed&& feed) {
  std::vector<unsigned char> input(k_chunk);
  for (;;) {
    const ssize_t got = ::read(fd, input.data(), input.size());
    if (got < 0) {
      if (errno == EINTR) continue;
      return fail(std::string("cannot read: ") + util::errno_text(errno));
    }
    if (!feed(input.data(), static_cast<std::size_t>(got), got == 0)) return {};
    if (got == 0) return {};
  }
}

// Where an ELF file whose first bytes are `head` ends by its own headers: the furthest byte that
// its program headers, section headers or their tables reach. nullopt while `head` is too short to
// say (more must be decoded first), 0 when it never will (not ELF64, tables past the first MiB):
// then only DecodeLimits bounds the decoding.
constexpr std::size_t k_max_head = 1 << 20;
std::optional<std::uint64_t> declared_end(const std::string& head) {
  const auto u16 = [&](std::uint64_t at) {
    std::uint16_t v = 0;
    std::memcpy(&v, head.data() + at, 2);
    return v;
  };
  const auto u32 = [&](std::uint64_t at) {
    std::uint32_t v = 0;
    std::memcpy(&v, head.data() + at, 4);
    return v;
  };
  const auto u64 = [&](std::uint64_t at) {
    std::uint64_t v = 0;
    std::memcpy(&v, head.data() + at, 8);
    return v;
  };
  const bool complete = head.size() >= k_max_head;
  // Whether [at, at + size) is in `head`: true, false (never will be), or nullopt (decode more).
  const auto have = [&](std::uint64_t at, std::uint64_t size) -> std::optional<bool> {
    if (at > k_max_head || size > k_max_head - at) return false;
    if (at + size <= head.size()) return true;
    if (complete) return false;
    return std::nullopt;
  };
  if (head.size() < 64) return complete ? std::optional<std::uint64_t>(0) : std::nullopt;
  if (std::memcmp(head.data(),
                  "\x7f"
                  "ELF\x02\x01",
                  6) != 0)
    return 0;
  const std::uint64_t phoff = u64(0x20), shoff = u64(0x28);
  std::uint64_t phnum = u16(0x38), shnum = u16(0x3c);
  if ((phnum != 0 && u16(0x36) != 56) || (shoff != 0 && u16(0x3a) != 64)) return 0;
  // PN_XNUM and SHN_UNDEF counts: the real ones are in section header 0.
  if (phnum == 0xffff || (shnum == 0 && shoff != 0)) {
    if (shoff == 0) return 0;
    const auto first = have(shoff, 64);
    if (!first) return std::nullopt;
    if (!*first) return 0;
    if (phnum == 0xffff) phnum = u32(shoff + 0x2c);
    if (shnum == 0) shnum = u64(shoff + 0x20);
  }
  if (phnum > k_max_head / 56 || shnum > k_max_head / 64) return 0;  // tables past the first MiB
  const auto phdrs = have(phoff, phnum * 56), shdrs = have(shoff, shnum * 64);
  if (!phdrs || !shdrs) return std::nullopt;
  if (!*phdrs || !*shdrs) return 0;
  std::uint64_t end = std::max<std::uint64_t>({64, phoff + phnum * 56, shoff + shnum * 64});
  const auto reach = [&](std::uint64_t offset, std::uint64_t size) {
    end = std::max(end, offset > UINT64_MAX - size ? UINT64_MAX : offset + size);
  };
  for (std::uint64_t i = 0; i < phnum; ++i)
    reach(u64(phoff + i * 56 + 8), u64(phoff + i * 56 + 32));
  for (std::uint64_t i = 0; i < shnum; ++i)
    if (u32(shoff + i * 64 + 4) != 8)  // SHT_NOBITS takes no room in the file
      reach(u64(shoff + i * 64 + 24), u64(shoff + i * 64 + 32));
  return end;
}

struct Sink {
  int fd;
  std::uint64_t max_bytes;
  std::uint64_t size = 0;
  std::string problem;
  bool capped = false;
  bool past_declared_end = false;
  // The first bytes decoded, until the ELF headers in them say where the dump ends: a stream that
  // goes on past that (50 GiB of zeros after a real core's headers) is cut there, instead of
  // decoding for minutes what no header points to.
  std::string head;
  std::optional<std::uint64_t> end;

  // Writes decoded bytes, up to the cap; false when the caller must stop.
  bool take(const unsigned char* data, std::size_t count) {
    if (!end) {
      head.append(reinterpret_cast<const char*>(data),
                  std::min(count, k_max_head - std::min(head.size(), k_max_head)));
      end = declared_end(head);
      if (end) std::string().swap(head);
    }
    const bool headers_end = end && *end != 0 && *end < max_bytes;
    const std::uint64_t limit = headers_end ? *end : max_bytes;
    const std::uint64_t room = limit - std::min(size, limit);
    const std::size_t keep = static_cast<std::size_t>(std::min<std::uint64_t>(room, count));
    if (auto written = write_sparse(fd, {data, keep}); !written) {
      problem = written.error().message;
      return false;
    }
    size += keep;
    if (keep < count) {
      capped = true;
      past_declared_end = headers_end;
      problem = headers_end
                    ? "cut at " + std::to_string(limit) +
                          " bytes, where its ELF headers say it ends: the stream goes on past "
                          "that and the rest was not decoded"
                    : "decompression stopped at the configured limit of " +
                          std::to_string(max_bytes >> 20) + " MiB";
      return false;
    }
    return true;
  }
};

Parsed<void> decode_xz(int in, Sink& sink, const DecodeLimits& limits) {
  lzma_stream stream = LZMA_STREAM_INIT;
  // The threaded decoder splits multi-block streams (xz -T) across `threads`; single-block
  // streams decode as fast as with the plain decoder. Both memory limits are the one budget:
  // past it the decoder stops with LZMA_MEMLIMIT_ERROR instead of allocating.
  lzma_mt options{};
  options.flags = LZMA_CONCATENATED;
  options.threads = std::max(1u, limits.threads);
  options.memlimit_threading = limits.max_memory;
  options.memlimit_stop = limits.max_memory;
  if (lzma_ret ret = lzma_stream_decoder_mt(&stream, &options); ret != LZMA_OK)
    return fail("cannot start the xz decoder: " + lzma_error(ret));
  std::unique_ptr<lzma_stream, void (*)(lzma_stream*)> guard(&stream, lzma_end);
  std::vector<unsigned char> output(k_chunk);
  bool finished = false;
  auto read = for_each_chunk(in, [&](const unsigned char* data, std::size_t size, bool at_end) {
    stream.next_in = data;
    stream.avail_in = size;
    const lzma_action action = at_end ? LZMA_FINISH : LZMA_RUN;
    for (;;) {
      stream.next_out = output.data();
      stream.avail_out = output.size();
      const lzma_ret ret = lzma_code(&stream, action);
      const std::size_t produced = output.size() - stream.avail_out;
      if (produced > 0 && !sink.take(output.data(), produced)) return false;
      if (ret == LZMA_STREAM_END) {
        finished = true;
        return false;
      }
      if (ret != LZMA_OK) {
        sink.problem = lzma_error(ret);
        return false;
      }
      // At the end keep calling: the decoder flushes what it holds, then says STREAM_END, or
      // BUF_ERROR when the stream was cut.
      if (!at_end && stream.avail_in == 0 && stream.avail_out != 0) return true;
    }
  });
  if (!read) return read;
  if (!finished && sink.problem.empty()) sink.problem = lzma_error(LZMA_BUF_ERROR);
  return {};
}

Parsed<void> decode_zstd(int in, Sink& sink) {
  std::unique_ptr<ZSTD_DStream, std::size_t (*)(ZSTD_DStream*)> stream(ZSTD_createDStream(),
                                                                       ZSTD_freeDStream);
  if (!stream) return fail("cannot start the zstd decoder");
  std::vector<unsigned char> output(ZSTD_DStreamOutSize());
  std::size_t pending = 1;  // ZSTD_decompressStream's hint: 0 once a frame is complete
  bool seen_input = false;
  auto read = for_each_chunk(in, [&](const unsigned char* data, std::size_t size, bool at_end) {
    if (at_end) return false;
    seen_input = true;
    ZSTD_inBuffer input{data, size, 0};
    while (input.pos < input.size) {
      ZSTD_outBuffer out{output.data(), output.size(), 0};
      pending = ZSTD_decompressStream(stream.get(), &out, &input);
      if (ZSTD_isError(pending)) {
        sink.problem = std::string("corrupt zstd data: ") + ZSTD_getErrorName(pending);
        return false;
      }
      if (out.pos > 0 && !sink.take(output.data(), out.pos)) return false;
    }
    return true;
  });
  if (!read) return read;
  if (seen_input && pending != 0 && sink.problem.empty())
    sink.problem = "the zstd stream ends early (the file was cut)";
  return {};
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
  TRY(compression == Compression::xz ? decode_xz(in.get(), sink, limits)
                                     : decode_zstd(in.get(), sink));
  if (sink.size == 0)
    return fail("cannot decompress " + std::string(to_string(compression)) +
                " data: " + (sink.problem.empty() ? "the stream is empty" : sink.problem));
  TRY(finish_sparse(out.get(), sink.size));
  return Decompressed{std::move(out), sink.size, sink.problem, sink.past_declared_end};
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
    file = std::move(decompressed->file);
  }
  out.file = std::move(file);
  return out;
}

}  // namespace aoti::parsers::coredump
