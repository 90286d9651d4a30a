// The zip format read here, not through a zip library. The ones Debian ships were measured and
// do not fit: libzip exists only as a shared object, which loads libcrypto (for WinZip AES) at
// every start, 17,000 relocations and about a fifth of analyzing a small package
// (bench/startup.sh); minizip 1.1 compares ZIP64 sizes and offsets with (unsigned long)-1, so on
// 64-bit Linux every entry of 4 GiB or more, or placed past 4 GiB in the file, is misread. What a
// package needs is small: the central directory (APPNOTE 4.3.12-4.3.16, with ZIP64 4.3.14 and
// 4.5.3), each entry's local header (4.3.7), stored bytes as they are and deflated ones through
// zlib's raw inflate. tests/ write and read their zip files with libzip, an independent
// implementation, so a misreading here cannot hide behind a writer that shares it.
#include "parsers/zip/zip_archive.hpp"

#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <optional>

#include "util/byte_reader.hpp"
#include "util/format_size.hpp"
#include "util/open_file.hpp"

namespace aoti::parsers::zip {
namespace {

constexpr std::uint32_t k_local_header_signature = 0x04034b50;
constexpr std::uint32_t k_central_header_signature = 0x02014b50;
constexpr std::uint32_t k_end_signature = 0x06054b50;
constexpr std::uint32_t k_zip64_locator_signature = 0x07064b50;
constexpr std::uint32_t k_zip64_end_signature = 0x06064b50;
constexpr std::uint16_t k_zip64_extra_id = 0x0001;
constexpr std::size_t k_local_header_size = 30;
constexpr std::size_t k_central_header_size = 46;
constexpr std::size_t k_end_size = 22;
constexpr std::size_t k_zip64_locator_size = 20;
constexpr std::size_t k_zip64_end_size = 56;
constexpr std::size_t k_max_comment = 0xffff;
constexpr std::uint32_t k_saturated = 0xffffffff;
constexpr std::uint16_t k_method_stored = 0;
constexpr std::uint16_t k_method_deflated = 8;
constexpr std::uint16_t k_flag_encrypted = 1 << 0;
constexpr std::uint16_t k_flag_data_descriptor = 1 << 3;  // local CRC and sizes are zero
// The central directory is read whole; a forged size must not make us allocate gigabytes.
constexpr std::uint64_t k_max_central_directory = 256ull << 20;
constexpr std::size_t k_inflate_chunk = 1 << 16;

std::vector<std::byte> read_bytes(const RandomAccess& file, std::uint64_t offset,
                                  std::size_t count) {
  std::vector<std::byte> bytes(count);
  file.read(offset, bytes);
  return bytes;
}

// What the central directory says of an entry beyond ZipEntry.
struct EntryLayout {
  std::uint64_t local_header_offset = 0;
  std::uint16_t method = 0;
  std::uint16_t flags = 0;
};

struct CentralDirectory {
  std::vector<ZipEntry> entries;
  std::vector<EntryLayout> layouts;
};

// The compression methods of APPNOTE 4.4.5 that zip tools write and this reader does not inflate:
// a user who re-zipped a package with one of them is told which.
std::string method_name(std::uint16_t method) {
  switch (method) {
    case 12:
      return "bzip2";
    case 14:
      return "LZMA";
    case 93:
      return "zstd";
    case 95:
      return "xz";
    case 99:
      return "WinZip AES encryption";
    default:
      return "method " + std::to_string(method);
  }
}

// Throws util::ReadError, whose message opens with "truncated" when the file was cut, or with
// "not a zip archive" when it has no end record at all and does not start like a zip either.
CentralDirectory read_central_directory(const RandomAccess& file, bool starts_like_a_zip) {
  const std::uint64_t file_size = file.size();
  const auto no_end = [&] {
    return util::ReadError(starts_like_a_zip ? "truncated: the file starts like a zip archive but "
                                               "has no end-of-central-directory record"
                                             : "not a zip archive");
  };
  if (file_size < k_end_size) throw no_end();
  const std::size_t tail_size =
      static_cast<std::size_t>(std::min<std::uint64_t>(file_size, k_end_size + k_max_comment));
  const std::uint64_t tail_offset = file_size - tail_size;
  const auto tail = read_bytes(file, tail_offset, tail_size);
  const util::ByteView tail_fields(tail);

  // The last signature whose comment reaches exactly to the end of the file, else the last one.
  std::optional<std::size_t> end_at;
  for (std::size_t at = tail_size - k_end_size + 1; at-- > 0;) {
    if (tail_fields.u32(at) != k_end_signature) continue;
    if (!end_at) end_at = at;
    if (at + k_end_size + tail_fields.u16(at + 20) == tail_size) {
      end_at = at;
      break;
    }
  }
  if (!end_at) throw no_end();

  if (tail_fields.u16(*end_at + 4) != 0 && tail_fields.u16(*end_at + 4) != 0xffff)
    throw util::ReadError("multi-disk zip archives are not supported");
  std::uint64_t entry_count = tail_fields.u16(*end_at + 10);
  std::uint64_t cd_size = tail_fields.u32(*end_at + 12);
  std::uint64_t cd_offset = tail_fields.u32(*end_at + 16);

  const std::uint64_t end_offset = tail_offset + *end_at;
  if (end_offset >= k_zip64_locator_size) {
    const auto locator = read_bytes(file, end_offset - k_zip64_locator_size, k_zip64_locator_size);
    const util::ByteView locator_fields(locator);
    if (locator_fields.u32(0) == k_zip64_locator_signature) {
      const std::uint64_t zip64_end_offset = locator_fields.u64(8);
      if (zip64_end_offset > file_size || file_size - zip64_end_offset < k_zip64_end_size)
        throw util::ReadError("truncated: ZIP64 end-of-central-directory record is past the end");
      const auto zip64_end = read_bytes(file, zip64_end_offset, k_zip64_end_size);
      const util::ByteView end_fields(zip64_end);
      if (end_fields.u32(0) != k_zip64_end_signature)
        throw util::ReadError("bad ZIP64 end-of-central-directory record");
      entry_count = end_fields.u64(32);
      cd_size = end_fields.u64(40);
      cd_offset = end_fields.u64(48);
    }
  }
  if (cd_offset > file_size || cd_size > file_size - cd_offset)
    throw util::ReadError("truncated: central directory ends past the end of the file");
  if (cd_size > k_max_central_directory)
    throw util::ReadError("central directory is " + util::format_size(cd_size) +
                          ", more than the " + util::format_size(k_max_central_directory) +
                          " limit");
  // Each header takes at least 46 bytes: a count that cannot fit is forged.
  if (entry_count > cd_size / k_central_header_size)
    throw util::ReadError("central directory declares more entries than it can hold");

  const auto cd = read_bytes(file, cd_offset, static_cast<std::size_t>(cd_size));
  const util::ByteView fields(cd);
  std::size_t at = 0;
  CentralDirectory directory;
  directory.entries.reserve(entry_count);
  directory.layouts.reserve(entry_count);
  for (std::uint64_t i = 0; i < entry_count; ++i) {
    if (!fields.has(at, k_central_header_size) || fields.u32(at) != k_central_header_signature)
      throw util::ReadError("inconsistent zip archive: bad central directory header for entry " +
                            std::to_string(i));
    ZipEntry entry;
    EntryLayout layout;
    layout.flags = fields.u16(at + 8);
    layout.method = fields.u16(at + 10);
    entry.crc = fields.u32(at + 16);
    entry.compressed_size = fields.u32(at + 20);
    entry.size = fields.u32(at + 24);
    const std::size_t name_length = fields.u16(at + 28);
    const std::size_t extra_length = fields.u16(at + 30);
    const std::size_t comment_length = fields.u16(at + 32);
    layout.local_header_offset = fields.u32(at + 42);
    if (!fields.has(at + k_central_header_size, name_length + extra_length + comment_length))
      throw util::ReadError("inconsistent zip archive: central directory entry " +
                            std::to_string(i) + " runs past the directory's end");
    entry.name = fields.text(at + k_central_header_size, name_length);

    // ZIP64 extra: the 64-bit values, in this order, of exactly the fields saturated above.
    std::size_t extra = at + k_central_header_size + name_length;
    const std::size_t extra_end = extra + extra_length;
    while (extra + 4 <= extra_end) {
      const std::uint16_t id = fields.u16(extra);
      const std::size_t length = fields.u16(extra + 2);
      if (extra + 4 + length > extra_end)
        throw util::ReadError("inconsistent zip archive: bad extra field of entry " + entry.name);
      if (id == k_zip64_extra_id) {
        std::size_t field = extra + 4;
        const auto take = [&](std::uint64_t& value) {
          if (value != k_saturated) return;
          if (field + 8 > extra + 4 + length)
            throw util::ReadError("inconsistent zip archive: short ZIP64 extra field of entry " +
                                  entry.name);
          value = fields.u64(field);
          field += 8;
        };
        take(entry.size);
        take(entry.compressed_size);
        take(layout.local_header_offset);
      }
      extra += 4 + length;
    }
    entry.stored = layout.method == k_method_stored && !(layout.flags & k_flag_encrypted);
    entry.index = i;
    directory.entries.push_back(std::move(entry));
    directory.layouts.push_back(layout);
    at = extra_end + comment_length;
  }
  return directory;
}

// Where the entry's data starts, after checking its local header against the central record
// (what libzip's ZIP_CHECKCONS compared at open; here only for the entries actually read).
std::uint64_t data_offset(const RandomAccess& file, const ZipEntry& entry,
                          const EntryLayout& layout) {
  const std::uint64_t header_offset = layout.local_header_offset;
  if (header_offset > file.size() || file.size() - header_offset < k_local_header_size)
    throw util::ReadError("truncated: local header of " + entry.name +
                          " is past the end of the file");
  const auto header = read_bytes(file, header_offset, k_local_header_size);
  const util::ByteView fields(header);
  const auto disagrees = [&](const std::string& what) {
    return util::ReadError("inconsistent zip archive: the local header of " + entry.name +
                           " disagrees with the central directory (" + what + ")");
  };
  if (fields.u32(0) != k_local_header_signature)
    throw util::ReadError("inconsistent zip archive: no local header for entry " + entry.name);
  if (fields.u16(8) != layout.method) throw disagrees("compression method");
  const std::uint16_t name_length = fields.u16(26);
  if (name_length != entry.name.size()) throw disagrees("name length");
  if (!(fields.u16(6) & k_flag_data_descriptor)) {
    // Saturated local sizes sit in the local ZIP64 extra; the central ones are used.
    const std::uint32_t compressed32 = fields.u32(18);
    const std::uint32_t size32 = fields.u32(22);
    if (fields.u32(14) != entry.crc) throw disagrees("CRC-32");
    if (compressed32 != k_saturated && compressed32 != entry.compressed_size)
      throw disagrees("compressed size " + std::to_string(compressed32) + " against " +
                      std::to_string(entry.compressed_size));
    if (size32 != k_saturated && size32 != entry.size)
      throw disagrees("size " + std::to_string(size32) + " against " + std::to_string(entry.size));
  }
  // The local extra field may differ from the central one (alignment padding), so the data
  // offset is computed from the local lengths.
  const std::uint64_t offset = header_offset + k_local_header_size + name_length + fields.u16(28);
  if (offset > file.size() || entry.compressed_size > file.size() - offset)
    throw util::ReadError("truncated: entry " + entry.name + " ends past the end of the file");
  return offset;
}

// Inflates the raw deflate stream of `entry` into `out` (sized to the declared size), reading at
// most one byte more, so that an entry inflating past its declaration is caught at once.
std::string inflate_entry(const RandomAccess& file, std::uint64_t offset, const ZipEntry& entry,
                          std::string& out) {
  z_stream stream{};
  if (inflateInit2(&stream, -MAX_WBITS) != Z_OK)
    return "cannot inflate entry " + entry.name + ": zlib could not start";
  std::vector<std::byte> input(k_inflate_chunk);
  std::uint64_t consumed = 0;  // compressed bytes handed to zlib
  std::uint64_t done = 0;
  char probe = 0;  // where the byte past the declared size would go
  std::string problem;
  int status = Z_OK;
  while (problem.empty() && status != Z_STREAM_END) {
    if (stream.avail_in == 0 && consumed < entry.compressed_size) {
      const auto count = static_cast<std::size_t>(
          std::min<std::uint64_t>(input.size(), entry.compressed_size - consumed));
      file.read(offset + consumed, std::span(input.data(), count));
      consumed += count;
      stream.next_in = reinterpret_cast<Bytef*>(input.data());
      stream.avail_in = static_cast<uInt>(count);
    }
    const bool full = done == entry.size;
    const auto room =
        static_cast<uInt>(full ? 1 : std::min<std::uint64_t>(entry.size - done, 1u << 30));
    stream.next_out = reinterpret_cast<Bytef*>(full ? &probe : out.data() + done);
    stream.avail_out = room;
    status = inflate(&stream, Z_NO_FLUSH);
    const std::uint64_t produced = room - stream.avail_out;
    if (full && produced > 0)
      problem = "entry " + entry.name + " inflates to more than its declared " +
                util::format_size(entry.size);
    else if (status == Z_BUF_ERROR)  // no progress: the compressed bytes ran out mid-stream
      problem = "truncated: entry " + entry.name + " ends after " + std::to_string(done) +
                " of its " + std::to_string(entry.size) + " bytes";
    else if (status != Z_OK && status != Z_STREAM_END)
      problem = "cannot inflate entry " + entry.name + ": " +
                (stream.msg ? stream.msg : "zlib error " + std::to_string(status));
    else
      done += produced;
  }
  if (problem.empty() && done != entry.size)
    problem = "truncated: entry " + entry.name + " ends after " + std::to_string(done) +
              " of its " + std::to_string(entry.size) + " bytes";
  inflateEnd(&stream);
  return problem;
}

}  // namespace

bool starts_like_zip(const std::filesystem::path& path) {
  char magic[4] = {};
  const auto file = util::open_regular_file(path);
  return file && ::pread(file->get(), magic, sizeof magic, 0) == sizeof magic &&
         std::memcmp(magic, "PK\x03\x04", 4) == 0;
}

struct ZipArchive::Impl {
  std::filesystem::path path;
  std::vector<ZipEntry> entries;
  std::vector<EntryLayout> layouts;

  // The layout of `entry`, checking that it is one of ours.
  const EntryLayout* layout_of(const ZipEntry& entry) const {
    if (entry.index >= entries.size() || entries[entry.index].name != entry.name) return nullptr;
    return &layouts[entry.index];
  }
};

ZipArchive::ZipArchive(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
ZipArchive::ZipArchive(ZipArchive&&) noexcept = default;
ZipArchive& ZipArchive::operator=(ZipArchive&&) noexcept = default;
ZipArchive::~ZipArchive() = default;

Parsed<ZipArchive> ZipArchive::open(const std::filesystem::path& path) {
  std::error_code ignored;
  if (!std::filesystem::exists(path, ignored)) return fail("no such file");
  // Only regular files are read: a FIFO would block, a device would be read forever.
  if (std::string problem = util::regular_file_problem(path); !problem.empty())
    return fail(std::move(problem));
  auto impl = std::make_unique<Impl>();
  impl->path = path;
  try {
    auto directory = read_central_directory(*open_file(path), starts_like_zip(path));
    impl->entries = std::move(directory.entries);
    impl->layouts = std::move(directory.layouts);
  } catch (const util::ReadError& error) {
    return fail(error.what());
  }
  return ZipArchive(std::move(impl));
}

const std::vector<ZipEntry>& ZipArchive::entries() const { return m_impl->entries; }

const ZipEntry* ZipArchive::find(std::string_view name) const {
  const auto it = std::find_if(m_impl->entries.begin(), m_impl->entries.end(),
                               [&](const ZipEntry& entry) { return entry.name == name; });
  return it == m_impl->entries.end() ? nullptr : &*it;
}

Parsed<std::string> ZipArchive::read(const ZipEntry& entry, std::uint64_t max_bytes) const {
  const EntryLayout* layout = m_impl->layout_of(entry);
  if (!layout) return fail("entry " + entry.name + " does not belong to this archive");
  if (layout->flags & k_flag_encrypted) return fail("entry " + entry.name + " is encrypted");
  if (layout->method != k_method_stored && layout->method != k_method_deflated)
    return fail("entry " + entry.name + " is compressed with " + method_name(layout->method) +
                ", which is not read (only stored and deflated entries are)");
  if (entry.size > max_bytes)
    return fail("entry " + entry.name + " is " + util::format_size(entry.size) +
                ", more than the " + util::format_size(max_bytes) + " limit");
  try {
    const auto file = open_file(m_impl->path);
    const std::uint64_t offset = data_offset(*file, entry, *layout);
    std::string data(static_cast<std::size_t>(entry.size), '\0');
    if (layout->method == k_method_stored) {
      if (entry.compressed_size != entry.size)
        return fail("inconsistent zip archive: stored entry " + entry.name +
                    " has different compressed and uncompressed sizes");
      file->read(offset, std::as_writable_bytes(std::span(data)));
    } else if (std::string problem = inflate_entry(*file, offset, entry, data); !problem.empty()) {
      return fail(problem);
    }
    const auto crc = crc32_z(0, reinterpret_cast<const Bytef*>(data.data()), data.size());
    if (crc != entry.crc) return fail("entry " + entry.name + " fails its CRC-32 check");
    return data;
  } catch (const util::ReadError& error) {
    return fail(std::string(error.what()).starts_with("truncated") ||
                        std::string(error.what()).starts_with("inconsistent")
                    ? std::string(error.what())
                    : "cannot read entry " + entry.name + ": " + error.what());
  }
}

Parsed<std::unique_ptr<RandomAccess>> ZipArchive::open_stored(const ZipEntry& entry) const {
  if (!entry.stored)
    return fail("entry " + entry.name + " is compressed or encrypted: it cannot be read in place");
  const EntryLayout* layout = m_impl->layout_of(entry);
  if (!layout) return fail("entry " + entry.name + " does not belong to this archive");
  if (entry.compressed_size != entry.size)
    return fail("inconsistent zip archive: stored entry " + entry.name +
                " has different compressed and uncompressed sizes");
  try {
    const auto file = open_file(m_impl->path);
    return open_file_range(m_impl->path, data_offset(*file, entry, *layout), entry.size);
  } catch (const util::ReadError& error) {
    return fail(error.what());
  }
}

}  // namespace aoti::parsers::zip
