// make_big_pt2 IN.pt2 OUT.pt2 WEIGHT_BYTES: rewrites a package with every entry STORED and, when
// WEIGHT_BYTES > 0, a weights entry of that many zero bytes put first, as a hole in a sparse
// file. The zip records are written by hand because libzip would write every zero byte; the
// weights entry first pushes every other entry past 4 GiB, so their offsets need ZIP64 too.
#include <fcntl.h>
#include <unistd.h>
#include <zip.h>
#include <zlib.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

constexpr std::uint32_t k_saturated = 0xffffffff;
constexpr std::uint16_t k_dos_date = 0x21;  // 1980-01-01

struct Entry {
  std::string name;
  std::string data;  // empty for the weights entry, which is a hole
  std::uint64_t size = 0;
  std::uint32_t crc = 0;
  std::uint64_t offset = 0;  // of the local header
};

void put(std::string& out, std::uint64_t value, int width) {
  for (int i = 0; i < width; ++i) out += static_cast<char>((value >> (8 * i)) & 0xff);
}

// CRC-32 of `size` zero bytes by doubling with crc32_combine: no need to feed 10 GiB to zlib.
std::uint32_t crc_of_zeros(std::uint64_t size) {
  const std::vector<unsigned char> block(1 << 20, 0);
  std::uint32_t crc = 0;
  std::uint32_t chunk_crc = crc32(0, block.data(), static_cast<uInt>(block.size()));
  std::uint64_t chunk = block.size();
  const std::uint64_t tail = size % block.size();
  for (std::uint64_t left = size / block.size(); left; left >>= 1) {
    if (left & 1)
      crc = static_cast<std::uint32_t>(crc32_combine(crc, chunk_crc, static_cast<z_off_t>(chunk)));
    chunk_crc = static_cast<std::uint32_t>(
        crc32_combine(chunk_crc, chunk_crc, static_cast<z_off_t>(chunk)));
    chunk *= 2;
  }
  const std::uint32_t tail_crc = crc32(0, block.data(), static_cast<uInt>(tail));
  return static_cast<std::uint32_t>(crc32_combine(crc, tail_crc, static_cast<z_off_t>(tail)));
}

std::vector<Entry> read_entries(const char* path) {
  int error = 0;
  zip_t* archive = zip_open(path, ZIP_RDONLY, &error);
  if (!archive) throw std::runtime_error(std::string("cannot open ") + path + " as a zip archive");
  std::vector<Entry> entries;
  for (zip_int64_t i = 0; i < zip_get_num_entries(archive, 0); ++i) {
    zip_stat_t st;
    zip_stat_index(archive, static_cast<zip_uint64_t>(i), 0, &st);
    Entry entry{st.name, std::string(st.size, '\0'), st.size, st.crc, 0};
    zip_file_t* file = zip_fopen_index(archive, static_cast<zip_uint64_t>(i), 0);
    if (!file || zip_fread(file, entry.data.data(), st.size) != static_cast<zip_int64_t>(st.size))
      throw std::runtime_error("cannot read entry " + entry.name);
    zip_fclose(file);
    entries.push_back(std::move(entry));
  }
  zip_discard(archive);
  return entries;
}

std::string local_header(const Entry& entry) {
  const bool zip64 = entry.size >= k_saturated;
  std::string out;
  put(out, 0x04034b50, 4);
  put(out, zip64 ? 45 : 20, 2);
  put(out, 0, 2);  // flags
  put(out, 0, 2);  // STORED
  put(out, 0, 2);
  put(out, k_dos_date, 2);
  put(out, entry.crc, 4);
  put(out, zip64 ? k_saturated : entry.size, 4);
  put(out, zip64 ? k_saturated : entry.size, 4);
  put(out, entry.name.size(), 2);
  put(out, zip64 ? 20 : 0, 2);
  out += entry.name;
  if (zip64) {
    put(out, 0x0001, 2);
    put(out, 16, 2);
    put(out, entry.size, 8);
    put(out, entry.size, 8);
  }
  return out;
}

std::string central_header(const Entry& entry) {
  const bool big_size = entry.size >= k_saturated;
  const bool big_offset = entry.offset >= k_saturated;
  std::string extra;
  if (big_size || big_offset) {
    std::string values;
    if (big_size) {
      put(values, entry.size, 8);
      put(values, entry.size, 8);
    }
    if (big_offset) put(values, entry.offset, 8);
    put(extra, 0x0001, 2);
    put(extra, values.size(), 2);
    extra += values;
  }
  std::string out;
  put(out, 0x02014b50, 4);
  put(out, 45 | (3 << 8), 2);  // made by: ZIP64-aware, Unix
  put(out, big_size || big_offset ? 45 : 20, 2);
  put(out, 0, 2);
  put(out, 0, 2);
  put(out, 0, 2);
  put(out, k_dos_date, 2);
  put(out, entry.crc, 4);
  put(out, big_size ? k_saturated : entry.size, 4);
  put(out, big_size ? k_saturated : entry.size, 4);
  put(out, entry.name.size(), 2);
  put(out, extra.size(), 2);
  put(out, 0, 2);  // comment
  put(out, 0, 2);  // disk
  put(out, 0, 2);  // internal attributes
  put(out, 0100644u << 16, 4);
  put(out, big_offset ? k_saturated : entry.offset, 4);
  return out + entry.name + extra;
}

std::string end_records(std::uint64_t count, std::uint64_t cd_offset, std::uint64_t cd_size) {
  std::string out;
  put(out, 0x06064b50, 4);
  put(out, 44, 8);
  put(out, 45 | (3 << 8), 2);
  put(out, 45, 2);
  put(out, 0, 4);
  put(out, 0, 4);
  put(out, count, 8);
  put(out, count, 8);
  put(out, cd_size, 8);
  put(out, cd_offset, 8);
  put(out, 0x07064b50, 4);
  put(out, 0, 4);
  put(out, cd_offset + cd_size, 8);
  put(out, 1, 4);
  put(out, 0x06054b50, 4);
  put(out, 0, 2);
  put(out, 0, 2);
  put(out, count >= 0xffff ? 0xffff : count, 2);
  put(out, count >= 0xffff ? 0xffff : count, 2);
  put(out, cd_size >= k_saturated ? k_saturated : cd_size, 4);
  put(out, cd_offset >= k_saturated ? k_saturated : cd_offset, 4);
  put(out, 0, 2);
  return out;
}

class Output {
 public:
  explicit Output(const char* path)
      : m_fd(::open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644)) {
    if (m_fd < 0)
      throw std::runtime_error(std::string("cannot create ") + path + ": " + std::strerror(errno));
  }
  ~Output() { ::close(m_fd); }
  std::uint64_t position() const { return m_position; }
  void write(const std::string& bytes) {
    for (std::size_t done = 0; done < bytes.size();) {
      const ssize_t got = ::pwrite(m_fd, bytes.data() + done, bytes.size() - done,
                                   static_cast<off_t>(m_position + done));
      if (got <= 0) throw std::runtime_error(std::string("write failed: ") + std::strerror(errno));
      done += static_cast<std::size_t>(got);
    }
    m_position += bytes.size();
  }
  // Leaves a hole: the file system stores no blocks for it, and it reads back as zeros.
  void skip(std::uint64_t bytes) { m_position += bytes; }

 private:
  int m_fd;
  std::uint64_t m_position = 0;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: make_big_pt2 IN.pt2 OUT.pt2 WEIGHT_BYTES\n";
    return 2;
  }
  try {
    std::vector<Entry> entries = read_entries(argv[1]);
    if (entries.empty()) throw std::runtime_error("empty package");
    const std::uint64_t weight_bytes = std::stoull(argv[3]);
    if (weight_bytes > 0) {
      // Same root folder as the package's records: <root>/data/weights/weight_0.
      const std::string& first = entries.front().name;
      const auto slash = first.find('/');
      const std::string root = slash == std::string::npos ? "" : first.substr(0, slash + 1);
      entries.insert(entries.begin(), Entry{root + "data/weights/weight_0", "", weight_bytes,
                                            crc_of_zeros(weight_bytes), 0});
    }
    Output out(argv[2]);
    for (Entry& entry : entries) {
      entry.offset = out.position();
      out.write(local_header(entry));
      if (entry.data.empty())
        out.skip(entry.size);
      else
        out.write(entry.data);
    }
    const std::uint64_t cd_offset = out.position();
    for (const Entry& entry : entries) out.write(central_header(entry));
    out.write(end_records(entries.size(), cd_offset, out.position() - cd_offset));
  } catch (const std::exception& error) {
    std::cerr << "make_big_pt2: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
