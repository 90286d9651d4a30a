#include "parsers/coredump/xz_decode.hpp"
#include "parsers/coredump/lzma2_decoder.hpp"
#include "parsers/coredump/private_file.hpp"
#include "util/errno_text.hpp"
#include "util/expected.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <system_error>
#include <thread>

namespace aoti::parsers::coredump {

namespace {

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

// The memory the block decoders of one core may take together (DecodeLimits::max_memory): each
// holds its block's share while it decodes, and a decoder whose share is not free waits for the
// others to finish theirs, so a stream of blocks declaring large dictionaries decodes no more of
// them at once than the budget allows.
class MemoryBudget {
 public:
  explicit MemoryBudget(std::uint64_t total) : m_total(total), m_left(total) {}
  std::uint64_t total() const { return m_total; }
  void acquire(std::uint64_t bytes) {
    std::unique_lock lock(m_mutex);
    m_freed.wait(lock, [&] { return m_left >= bytes; });
    m_left -= bytes;
  }
  void release(std::uint64_t bytes) {
    {
      std::lock_guard lock(m_mutex);
      m_left += bytes;
    }
    m_freed.notify_all();
  }

 private:
  const std::uint64_t m_total;
  std::uint64_t m_left;
  std::mutex m_mutex;
  std::condition_variable m_freed;
};

// A block decoder kept from block to block on one thread: liblzma, and our LZMA2 decoder, reuse
// their dictionary when the next block declares one of the same size. A new one per block was
// 8 MiB of fresh pages each, a fault per page: 16,000 faults, a third of the CPU of a 170 MiB core
// on this virtual machine.
class BlockDecoder {
 public:
  BlockDecoder() = default;
  BlockDecoder(const BlockDecoder&) = delete;
  BlockDecoder& operator=(const BlockDecoder&) = delete;
  ~BlockDecoder() { lzma_end(&m_stream); }
  lzma_stream& stream() { return m_stream; }
  Lzma2Decoder lzma2;
  // The compressed bytes read and the decoded bytes handed on, kept too.
  std::vector<unsigned char> input = std::vector<unsigned char>(k_chunk);
  std::vector<unsigned char> output = std::vector<unsigned char>(k_chunk);

 private:
  lzma_stream m_stream = LZMA_STREAM_INIT;
};

// The bytes of one block after its header, read ahead through `buffer`: by piece for liblzma, by
// count for our LZMA2 decoder.
class BlockReader {
 public:
  BlockReader(int fd, std::uint64_t offset, std::uint64_t size, std::vector<unsigned char>& buffer)
      : m_fd(fd), m_offset(offset), m_left(size), m_buffer(buffer) {}
  // The bytes read ahead and not yet taken (reading more when there are none); empty when the
  // block (or the file) has ended, or a read failed (`problem` says why).
  std::span<const std::uint8_t> next() {
    if (m_at == m_have && !refill()) return {};
    const std::span<const std::uint8_t> piece(m_buffer.data() + m_at, m_have - m_at);
    m_at = m_have;
    m_consumed += piece.size();
    return piece;
  }
  // How many of `size` bytes were read: fewer when the block (or the file) ends first, or a read
  // fails.
  std::size_t read(std::uint8_t* into, std::size_t size) {
    std::size_t done = 0;
    while (done < size) {
      if (m_at == m_have && !refill()) break;
      const std::size_t piece = std::min(size - done, m_have - m_at);
      std::memcpy(into + done, m_buffer.data() + m_at, piece);
      m_at += piece;
      done += piece;
    }
    m_consumed += done;
    return done;
  }
  // Nothing more to come: every byte taken, and the block read to its end or the file's.
  bool exhausted() const { return m_at == m_have && (m_left == 0 || m_ended); }
  std::uint64_t consumed() const { return m_consumed; }
  std::string problem;

 private:
  bool refill() {
    while (m_left > 0 && !m_ended) {
      const ssize_t got = ::pread(m_fd, m_buffer.data(), std::min<std::uint64_t>(k_chunk, m_left),
                                  static_cast<off_t>(m_offset));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) problem = std::string("cannot read: ") + util::errno_text(errno);
      if (got <= 0) {
        m_ended = true;
        return false;
      }
      m_at = 0;
      m_have = static_cast<std::size_t>(got);
      m_offset += m_have;
      m_left -= m_have;
      return true;
    }
    return false;
  }

  int m_fd;
  std::uint64_t m_offset;
  std::uint64_t m_left;
  std::vector<unsigned char>& m_buffer;
  std::size_t m_at = 0;
  std::size_t m_have = 0;
  std::uint64_t m_consumed = 0;
  bool m_ended = false;  // a read failed, or the file ended before the block
};

// Whether our LZMA2 decoder takes the block: LZMA2 its only filter, and a check liblzma computes
// for us (SHA-256 it does not export).
const lzma_options_lzma* lzma2_only(const lzma_filter* filters, lzma_check check) {
  if (filters[0].id != LZMA_FILTER_LZMA2 || filters[1].id != LZMA_VLI_UNKNOWN) return nullptr;
  if (check != LZMA_CHECK_NONE && check != LZMA_CHECK_CRC32 && check != LZMA_CHECK_CRC64)
    return nullptr;
  return static_cast<const lzma_options_lzma*>(filters[0].options);
}

// decode_block's work for an LZMA2 block (lzma2_decoder.hpp says why not liblzma's), with the
// checks liblzma's block decoder makes: the sizes the index and header give, zero padding, the
// integrity check.
template <class Take>
std::string decode_lzma2_block(int fd, const XzBlock& block, const lzma_block& options,
                               std::uint32_t dict_size, BlockDecoder& decoder, Take& take) {
  BlockReader reader(fd, block.file_offset + options.header_size,
                     block.total_size - options.header_size, decoder.input);
  std::uint64_t decoded = 0;
  std::uint32_t crc32 = 0;
  std::uint64_t crc64 = 0;
  bool too_long = false;
  bool stopped = false;
  const Lzma2Decoder::Status status = decoder.lzma2.decode(
      dict_size, [&](std::uint8_t* into, std::size_t size) { return reader.read(into, size); },
      [&](const std::uint8_t* data, std::size_t size) {
        if (size > block.size - decoded) {
          too_long = true;
          return false;
        }
        decoded += size;
        if (block.check == LZMA_CHECK_CRC32) crc32 = lzma_crc32(data, size, crc32);
        if (block.check == LZMA_CHECK_CRC64) crc64 = lzma_crc64(data, size, crc64);
        stopped = !take(data, size);
        return !stopped;
      });
  if (stopped) return "";
  if (status == Lzma2Decoder::Status::truncated)
    return reader.problem.empty() ? lzma_error(LZMA_BUF_ERROR) : reader.problem;
  if (status == Lzma2Decoder::Status::corrupt || too_long || decoded != block.size ||
      reader.consumed() != options.compressed_size)
    return lzma_error(LZMA_DATA_ERROR);
  // Padding to a multiple of four bytes, zeros; then the check, little-endian.
  const std::size_t padding = (4 - (options.header_size + options.compressed_size) % 4) % 4;
  const std::size_t check_size = lzma_check_size(block.check);
  std::uint8_t tail[3 + 8] = {};
  if (reader.read(tail, padding + check_size) != padding + check_size)
    return reader.problem.empty() ? lzma_error(LZMA_BUF_ERROR) : reader.problem;
  if (std::any_of(tail, tail + padding, [](std::uint8_t b) { return b != 0; }))
    return lzma_error(LZMA_DATA_ERROR);
  std::uint64_t stored = 0;
  for (std::size_t i = 0; i < check_size; ++i)
    stored |= std::uint64_t{tail[padding + i]} << (8 * i);
  const std::uint64_t computed = block.check == LZMA_CHECK_CRC32 ? crc32 : crc64;
  if (check_size > 0 && stored != computed) return lzma_error(LZMA_DATA_ERROR);
  return "";
}

// Decodes one block on its own with `decoder`, handing its bytes in order to `take(data, size)`,
// which returns false to stop early. Returns "" when the block decoded to its end (or `take`
// stopped it), else what went wrong: the decoder checks the block against its index entry and its
// integrity check.
template <class Take>
std::string decode_block(int fd, const XzBlock& block, MemoryBudget& budget, BlockDecoder& decoder,
                         Take&& take) {
  std::uint8_t header[LZMA_BLOCK_HEADER_SIZE_MAX];
  if (::pread(fd, header, 1, static_cast<off_t>(block.file_offset)) != 1)
    return lzma_error(LZMA_BUF_ERROR);
  const std::uint32_t header_size = lzma_block_header_size_decode(header[0]);
  if (header_size > block.total_size ||
      ::pread(fd, header, header_size, static_cast<off_t>(block.file_offset)) !=
          static_cast<ssize_t>(header_size))
    return lzma_error(LZMA_BUF_ERROR);
  lzma_filter filters[LZMA_FILTERS_MAX + 1];
  lzma_block options{};
  options.version = 1;
  options.check = block.check;
  options.header_size = header_size;
  options.filters = filters;
  if (lzma_ret ret = lzma_block_header_decode(&options, nullptr, header); ret != LZMA_OK)
    return lzma_error(ret);
  std::unique_ptr<lzma_filter, void (*)(lzma_filter*)> free_filters(
      filters, [](lzma_filter* f) { lzma_filters_free(f, nullptr); });
  if (lzma_block_compressed_size(&options, block.unpadded_size) != LZMA_OK ||
      (options.uncompressed_size != LZMA_VLI_UNKNOWN && options.uncompressed_size != block.size))
    return "the xz index does not match the block it describes";
  options.uncompressed_size = block.size;
  // The dictionary is the block's to declare (up to 1.5 GiB): refused over the whole budget, as
  // the stream decoder's memory limit does.
  const lzma_options_lzma* lzma2 = lzma2_only(filters, block.check);
  const std::uint64_t memory =
      lzma2 ? Lzma2Decoder::memory_usage(lzma2->dict_size) : lzma_raw_decoder_memusage(filters);
  if (memory > budget.total()) return lzma_error(LZMA_MEMLIMIT_ERROR);
  budget.acquire(memory);
  struct Release {
    MemoryBudget& budget;
    std::uint64_t bytes;
    ~Release() { budget.release(bytes); }
  } held{budget, memory};
  if (lzma2) return decode_lzma2_block(fd, block, options, lzma2->dict_size, decoder, take);
  lzma_stream& stream = decoder.stream();
  if (lzma_ret ret = lzma_block_decoder(&stream, &options); ret != LZMA_OK) return lzma_error(ret);
  stream.next_in = nullptr;  // not what the previous block left: its input buffer is gone
  stream.avail_in = 0;
  std::vector<unsigned char>& output = decoder.output;
  BlockReader reader(fd, block.file_offset + header_size, block.total_size - header_size,
                     decoder.input);
  for (;;) {
    if (stream.avail_in == 0 && !reader.exhausted()) {
      const std::span<const std::uint8_t> piece = reader.next();
      if (!reader.problem.empty()) return reader.problem;
      stream.next_in = piece.data();
      stream.avail_in = piece.size();
    }
    stream.next_out = output.data();
    stream.avail_out = output.size();
    const lzma_ret ret = lzma_code(&stream, reader.exhausted() ? LZMA_FINISH : LZMA_RUN);
    const std::size_t produced = output.size() - stream.avail_out;
    if (produced > 0 && !take(output.data(), produced)) return "";
    if (ret == LZMA_STREAM_END) return "";
    if (ret != LZMA_OK) return lzma_error(ret);
  }
}

}  // namespace

std::optional<std::vector<XzBlock>> xz_blocks(int fd, std::uint64_t max_memory) {
  struct stat status{};
  if (::fstat(fd, &status) != 0) return std::nullopt;
  lzma_stream stream = LZMA_STREAM_INIT;
  lzma_index* index = nullptr;
  if (lzma_file_info_decoder(&stream, &index, max_memory,
                             static_cast<std::uint64_t>(status.st_size)) != LZMA_OK)
    return std::nullopt;
  std::unique_ptr<lzma_stream, void (*)(lzma_stream*)> guard(&stream, lzma_end);
  std::vector<unsigned char> input(64 << 10);
  std::uint64_t position = 0;
  for (;;) {
    if (stream.avail_in == 0) {
      const ssize_t got = ::pread(fd, input.data(), input.size(), static_cast<off_t>(position));
      if (got <= 0) return std::nullopt;
      stream.next_in = input.data();
      stream.avail_in = static_cast<std::size_t>(got);
      position += static_cast<std::uint64_t>(got);
    }
    const lzma_ret ret = lzma_code(&stream, LZMA_RUN);
    if (ret == LZMA_SEEK_NEEDED) {
      position = stream.seek_pos;
      stream.avail_in = 0;
    } else if (ret == LZMA_STREAM_END) {
      break;
    } else if (ret != LZMA_OK) {
      return std::nullopt;
    }
  }
  std::unique_ptr<lzma_index, void (*)(lzma_index*)> owned(
      index, [](lzma_index* i) { lzma_index_end(i, nullptr); });
  std::vector<XzBlock> blocks;
  lzma_index_iter iter;
  lzma_index_iter_init(&iter, index);
  while (!lzma_index_iter_next(&iter, LZMA_INDEX_ITER_NONEMPTY_BLOCK))
    blocks.push_back({iter.block.compressed_file_offset, iter.block.total_size,
                      iter.block.unpadded_size, iter.block.uncompressed_file_offset,
                      iter.block.uncompressed_size, iter.stream.flags->check});
  return blocks;
}

Parsed<Decompressed> decode_xz_blocks(int in, util::Fd out, const std::vector<XzBlock>& blocks,
                                      const DecodeLimits& limits) {
  // The head first (up to 1 MiB of the first block, decoded again below): the ELF headers say where
  // the dump ends, and blocks past that are never decoded.
  MemoryBudget budget(limits.max_memory);
  std::string head;
  BlockDecoder head_decoder;  // this thread's, for its blocks below too
  decode_block(
      in, blocks.front(), budget, head_decoder, [&](const unsigned char* data, std::size_t size) {
        head.append(reinterpret_cast<const char*>(data), std::min(size, k_max_head - head.size()));
        return !declared_end(head) && head.size() < k_max_head;
      });
  const auto end = declared_end(head);
  const bool headers_end = end && *end != 0 && *end < limits.max_bytes;
  const std::uint64_t limit = headers_end ? *end : limits.max_bytes;

  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < blocks.size(); ++i)
    if (blocks[i].offset < limit) order.push_back(i);
  // Largest first: the biggest block bounds the wall time, so it must not start last.
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return blocks[a].total_size > blocks[b].total_size;
  });
  std::vector<std::uint64_t> decoded(blocks.size(), 0);
  std::vector<std::string> problems(blocks.size());
  std::atomic<std::size_t> next{0};
  auto work = [&](BlockDecoder& decoder) {
    for (std::size_t k = next++; k < order.size(); k = next++) {
      const std::size_t i = order[k];
      const XzBlock& block = blocks[i];
      const std::uint64_t room = std::min(block.size, limit - block.offset);
      std::string write_problem;
      problems[i] = decode_block(
          in, block, budget, decoder, [&](const unsigned char* data, std::size_t size) {
            const std::size_t keep =
                static_cast<std::size_t>(std::min<std::uint64_t>(size, room - decoded[i]));
            auto written = write_sparse_at(out.get(), block.offset + decoded[i], {data, keep});
            if (!written) {
              write_problem = written.error().message;
              return false;
            }
            decoded[i] += keep;
            return keep == size;
          });
      if (!write_problem.empty()) problems[i] = std::move(write_problem);
    }
  };
  const std::size_t workers = std::min<std::size_t>(limits.threads, order.size());
  std::vector<std::thread> threads;
  for (std::size_t t = 1; t < workers; ++t) {
    // A thread that cannot start leaves its blocks to the others: the same bytes, later.
    try {
      threads.emplace_back([&] {
        BlockDecoder decoder;
        work(decoder);
      });
    } catch (const std::system_error&) {
      break;
    }
  }
  work(head_decoder);
  for (std::thread& thread : threads) thread.join();

  Decompressed result;
  for (std::size_t i = 0; i < blocks.size() && blocks[i].offset < limit; ++i) {
    result.size = blocks[i].offset + decoded[i];
    if (!problems[i].empty()) {
      result.problem = problems[i];
      break;
    }
  }
  if (result.problem.empty() && blocks.back().offset + blocks.back().size > limit &&
      result.size == limit) {
    result.problem = cut_problem(headers_end, limit, limits.max_bytes);
    result.past_declared_end = headers_end;
  }
  if (result.size == 0)
    return fail("cannot decompress xz data: " +
                (result.problem.empty() ? std::string("the stream is empty") : result.problem));
  TRY(finish_sparse(out.get(), result.size));
  result.file = std::move(out);
  return result;
}

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

}  // namespace aoti::parsers::coredump
