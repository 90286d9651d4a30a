#include "parsers/zip/zip_archive.hpp"

#include <unistd.h>
#include <zip.h>

#include <algorithm>
#include <cstdio>
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
// libzip itself holds the whole central directory in memory; this bound only stops a forged
// size from making us allocate gigabytes before libzip would have refused it.
constexpr std::uint64_t k_max_central_directory = 256ull << 20;

std::vector<std::byte> read_bytes(const RandomAccess& file, std::uint64_t offset,
                                  std::size_t count) {
  std::vector<std::byte> bytes(count);
  file.read(offset, bytes);
  return bytes;
}

// What libzip keeps to itself: where each entry's local header starts, and whether the
// archive uses ZIP64 records.
struct CentralDirectory {
  std::vector<std::uint64_t> local_header_offsets;
  std::vector<std::string> raw_names;
  bool zip64 = false;
};

// libzip 1.7.3 has no public call that gives an entry's position in the file, and zip_ftell
// only reports the position inside the entry, so the local header offsets come from our own
// reading of the central directory. libzip has already validated the archive; this walk is
// cross-checked against it entry by entry, so the two readings cannot silently disagree.
CentralDirectory read_central_directory(const RandomAccess& file) {
  const std::uint64_t file_size = file.size();
  if (file_size < k_end_size)
    throw util::ReadError("truncated: no end-of-central-directory record");
  const std::size_t tail_size =
      static_cast<std::size_t>(std::min<std::uint64_t>(file_size, k_end_size + k_max_comment));
  const std::uint64_t tail_offset = file_size - tail_size;
  const auto tail = read_bytes(file, tail_offset, tail_size);
  const util::ByteView tail_fields(tail);

  // The last signature whose comment reaches exactly to the end of the file, as libzip prefers.
  std::optional<std::size_t> end_at;
  for (std::size_t at = tail_size - k_end_size + 1; at-- > 0;) {
    if (tail_fields.u32(at) != k_end_signature) continue;
    if (!end_at) end_at = at;
    if (at + k_end_size + tail_fields.u16(at + 20) == tail_size) {
      end_at = at;
      break;
    }
  }
  if (!end_at) throw util::ReadError("truncated: no end-of-central-directory record");

  CentralDirectory directory;
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
      directory.zip64 = true;
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
  directory.local_header_offsets.reserve(entry_count);
  directory.raw_names.reserve(entry_count);
  for (std::uint64_t i = 0; i < entry_count; ++i) {
    if (fields.u32(at) != k_central_header_signature)
      throw util::ReadError("bad central directory header for entry " + std::to_string(i));
    const std::uint32_t compressed32 = fields.u32(at + 20);
    const std::uint32_t size32 = fields.u32(at + 24);
    const std::size_t name_length = fields.u16(at + 28);
    const std::size_t extra_length = fields.u16(at + 30);
    const std::size_t comment_length = fields.u16(at + 32);
    std::uint64_t offset = fields.u32(at + 42);
    directory.raw_names.emplace_back(fields.text(at + k_central_header_size, name_length));

    // ZIP64 extra: the 64-bit values, in this order, of exactly the fields saturated above.
    std::size_t extra = at + k_central_header_size + name_length;
    const std::size_t extra_end = extra + extra_length;
    if (!fields.has(extra, extra_length)) throw util::ReadError("truncated central directory");
    while (extra + 4 <= extra_end) {
      const std::uint16_t id = fields.u16(extra);
      const std::size_t length = fields.u16(extra + 2);
      if (extra + 4 + length > extra_end)
        throw util::ReadError("bad extra field in the central directory");
      if (id == k_zip64_extra_id) {
        directory.zip64 = true;
        std::size_t field = extra + 4;
        const auto take = [&]() {
          if (field + 8 > extra + 4 + length) throw util::ReadError("short ZIP64 extra field");
          const std::uint64_t value = fields.u64(field);
          field += 8;
          return value;
        };
        if (size32 == 0xffffffff) take();
        if (compressed32 == 0xffffffff) take();
        if (offset == 0xffffffff) offset = take();
      }
      extra += 4 + length;
    }
    directory.local_header_offsets.push_back(offset);
    at = extra_end + comment_length;
  }
  return directory;
}

std::string libzip_open_error(int code, const std::filesystem::path& path) {
  zip_error_t error;
  zip_error_init_with_code(&error, code);
  std::string message = zip_error_strerror(&error);
  zip_error_fini(&error);
  switch (code) {
    case ZIP_ER_NOZIP: {
      // A file that starts like a zip but has lost its end is a cut-off download or copy.
      char magic[4] = {};
      if (FILE* file = std::fopen(path.c_str(), "rb")) {
        const std::size_t got = std::fread(magic, 1, sizeof magic, file);
        std::fclose(file);
        if (got == sizeof magic && std::memcmp(magic, "PK\x03\x04", 4) == 0)
          return "truncated: the file starts like a zip archive but has no central directory";
      }
      return "not a zip archive";
    }
    case ZIP_ER_INCONS:
      return "inconsistent zip archive (" + message + ")";
    case ZIP_ER_NOENT:
      return "no such file";
    case ZIP_ER_MULTIDISK:
      return "multi-disk zip archives are not supported";
    default:
      return "cannot open as a zip archive: " + message;
  }
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
  zip_t* archive = nullptr;
  std::vector<ZipEntry> entries;
  std::vector<std::uint64_t> local_header_offsets;
  bool zip64 = false;

  ~Impl() {
    if (archive) zip_discard(archive);
  }
};

ZipArchive::ZipArchive(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
ZipArchive::ZipArchive(ZipArchive&&) noexcept = default;
ZipArchive& ZipArchive::operator=(ZipArchive&&) noexcept = default;
ZipArchive::~ZipArchive() = default;

Parsed<ZipArchive> ZipArchive::open(const std::filesystem::path& path) {
  auto impl = std::make_unique<Impl>();
  impl->path = path;
  // libzip opens the path blocking: a FIFO would hang it, a device would be read. (A missing file
  // is left to libzip, which says so in its words.)
  std::error_code ignored;
  if (std::filesystem::exists(path, ignored))
    if (std::string problem = util::regular_file_problem(path); !problem.empty())
      return fail(std::move(problem));
  int code = 0;
  // ZIP_CHECKCONS compares every local header with its central record (no entry data is read),
  // which rejects archives whose two views of an entry disagree.
  impl->archive = zip_open(path.c_str(), ZIP_RDONLY | ZIP_CHECKCONS, &code);
  if (!impl->archive) return fail(libzip_open_error(code, path));

  try {
    const auto file = open_file(path);
    auto directory = read_central_directory(*file);
    const zip_int64_t count = zip_get_num_entries(impl->archive, 0);
    if (count < 0 || static_cast<std::uint64_t>(count) != directory.local_header_offsets.size())
      return fail("inconsistent zip archive: central directory entry count differs");
    impl->entries.reserve(static_cast<std::size_t>(count));
    for (zip_int64_t i = 0; i < count; ++i) {
      zip_stat_t stat;
      zip_stat_init(&stat);
      const auto index = static_cast<zip_uint64_t>(i);
      const char* raw_name = zip_get_name(impl->archive, index, ZIP_FL_ENC_RAW);
      if (zip_stat_index(impl->archive, index, 0, &stat) != 0 || !raw_name ||
          directory.raw_names[index] != raw_name)
        return fail("inconsistent zip archive: entry " + std::to_string(i) +
                    " differs between libzip and the central directory");
      ZipEntry entry;
      entry.name = (stat.valid & ZIP_STAT_NAME) ? stat.name : raw_name;
      entry.size = (stat.valid & ZIP_STAT_SIZE) ? stat.size : 0;
      entry.compressed_size = (stat.valid & ZIP_STAT_COMP_SIZE) ? stat.comp_size : 0;
      entry.crc = (stat.valid & ZIP_STAT_CRC) ? stat.crc : 0;
      entry.stored =
          (stat.valid & ZIP_STAT_COMP_METHOD) && stat.comp_method == ZIP_CM_STORE &&
          (!(stat.valid & ZIP_STAT_ENCRYPTION_METHOD) || stat.encryption_method == ZIP_EM_NONE);
      entry.index = index;
      impl->entries.push_back(std::move(entry));
    }
    impl->local_header_offsets = std::move(directory.local_header_offsets);
    impl->zip64 = directory.zip64;
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

bool ZipArchive::is_zip64() const { return m_impl->zip64; }

Parsed<std::string> ZipArchive::read(const ZipEntry& entry, std::uint64_t max_bytes) const {
  if (entry.size > max_bytes)
    return fail("entry " + entry.name + " is " + util::format_size(entry.size) +
                ", more than the " + util::format_size(max_bytes) + " limit");
  zip_file_t* file = zip_fopen_index(m_impl->archive, entry.index, 0);
  if (!file) return fail("cannot read entry " + entry.name + ": " + zip_strerror(m_impl->archive));

  // Declared sizes are claims: read at most one byte past them, so that an entry inflating to
  // more than it declared is caught without inflating the rest of it.
  std::string data(static_cast<std::size_t>(entry.size), '\0');
  std::uint64_t done = 0;
  std::string problem;
  while (problem.empty()) {
    char probe = 0;
    const bool full = done == entry.size;
    const std::uint64_t want = full ? 1 : std::min<std::uint64_t>(entry.size - done, 1 << 20);
    const zip_int64_t got = zip_fread(file, full ? &probe : data.data() + done, want);
    if (got < 0)
      problem = "cannot read entry " + entry.name + ": " + zip_file_strerror(file);
    else if (got == 0 && !full)
      problem = "truncated: entry " + entry.name + " ends after " + std::to_string(done) +
                " of its " + std::to_string(entry.size) + " bytes";
    else if (got == 0)
      break;
    else if (full)
      problem = "entry " + entry.name + " inflates to more than its declared " +
                util::format_size(entry.size);
    else
      done += static_cast<std::uint64_t>(got);
  }
  zip_fclose(file);
  if (!problem.empty()) return fail(problem);
  return data;
}

Parsed<std::unique_ptr<RandomAccess>> ZipArchive::open_stored(const ZipEntry& entry) const {
  if (!entry.stored)
    return fail("entry " + entry.name + " is compressed or encrypted: it cannot be read in place");
  if (entry.index >= m_impl->local_header_offsets.size() ||
      m_impl->entries[entry.index].name != entry.name)
    return fail("entry " + entry.name + " does not belong to this archive");
  if (entry.compressed_size != entry.size)
    return fail("inconsistent zip archive: stored entry " + entry.name +
                " has different compressed and uncompressed sizes");
  try {
    const auto file = open_file(m_impl->path);
    const std::uint64_t header_offset = m_impl->local_header_offsets[entry.index];
    if (header_offset > file->size() || file->size() - header_offset < k_local_header_size)
      return fail("truncated: local header of " + entry.name + " is past the end of the file");
    const auto header = read_bytes(*file, header_offset, k_local_header_size);
    const util::ByteView fields(header);
    if (fields.u32(0) != k_local_header_signature)
      return fail("bad local header for entry " + entry.name);
    // The local extra field may differ from the central one (alignment padding), so the data
    // offset is computed from the local lengths; the sizes come from the central directory.
    const std::uint64_t data_offset =
        header_offset + k_local_header_size + fields.u16(26) + fields.u16(28);
    if (data_offset > file->size() || entry.size > file->size() - data_offset)
      return fail("truncated: entry " + entry.name + " ends past the end of the file");
    return open_file_range(m_impl->path, data_offset, entry.size);
  } catch (const util::ReadError& error) {
    return fail(std::string("cannot read entry ") + entry.name + ": " + error.what());
  }
}

}  // namespace aoti::parsers::zip
