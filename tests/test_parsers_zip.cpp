#include <doctest/doctest.h>

#include <stdlib.h>
#include <zip.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <vector>

#include "parsers/zip/zip_archive.hpp"
#include "tests/support.hpp"

namespace {
using namespace aoti::test;

namespace fs = std::filesystem;
using aoti::parsers::zip::ZipArchive;
using aoti::parsers::zip::ZipEntry;

const ZipEntry* by_suffix(const ZipArchive& archive, std::string_view suffix) {
  for (const ZipEntry& entry : archive.entries())
    if (entry.name.ends_with(suffix)) return &entry;
  return nullptr;
}

}  // namespace

TEST_CASE("corpus packages open as stored zips with their AOTI entries") {
  for (const auto& name : k_corpus_cases) {
    CAPTURE(name);
    auto archive = ZipArchive::open(corpus_package(name));
    REQUIRE(archive);
    CHECK(std::all_of(archive->entries().begin(), archive->entries().end(),
                      [](const ZipEntry& e) { return e.stored && e.size == e.compressed_size; }));
    for (const char* suffix :
         {".wrapper.cpp", ".kernel.cpp", ".wrapper_metadata.json", ".wrapper.so"}) {
      const ZipEntry* entry = by_suffix(*archive, suffix);
      REQUIRE_MESSAGE(entry, suffix);
      CHECK(entry->name.starts_with("model/data/aotinductor/model/"));
    }
    const ZipEntry* format = archive->find("model/archive_format");
    REQUIRE(format);
    CHECK(*archive->read(*format, 64) == "pt2");
    CHECK(archive->find("archive_format") == nullptr);

    const ZipEntry* wrapper = by_suffix(*archive, ".wrapper.cpp");
    const auto text = archive->read(*wrapper, 64 << 20);
    REQUIRE(text);
    CHECK(*text == aoti::test::corpus_entry_text(name, ".wrapper.cpp"));
  }
}

TEST_CASE("a stored entry is read in place, byte for byte") {
  auto archive = ZipArchive::open(corpus_package("healthy-cuda-dynamic"));
  REQUIRE(archive);
  const ZipEntry* so = by_suffix(*archive, ".wrapper.so");
  REQUIRE(so);
  auto source = archive->open_stored(*so);
  REQUIRE(source);
  CHECK((*source)->size() == so->size);
  const auto whole = archive->read(*so, 64 << 20);
  REQUIRE(whole);
  std::string in_place(so->size, '\0');
  (*source)->read(0, std::as_writable_bytes(std::span(in_place)));
  CHECK(
      in_place.starts_with("\x7f"
                           "ELF"));
  CHECK(in_place == *whole);
  std::byte past[1];
  CHECK_THROWS_AS((*source)->read(so->size, past), aoti::util::ReadError);
}

TEST_CASE("read refuses entries larger than the cap, by declared size") {
  auto archive = ZipArchive::open(corpus_package("healthy-cuda-dynamic"));
  REQUIRE(archive);
  const ZipEntry* wrapper = by_suffix(*archive, ".wrapper.cpp");
  const auto text = archive->read(*wrapper, 1024);
  REQUIRE_FALSE(text);
  CHECK(text.error().message.find("more than the 1 KiB limit") != std::string::npos);
  CHECK(text.error().message.find(wrapper->name) != std::string::npos);
}

TEST_CASE("not a zip, and truncated copies, fail with the reason") {
  TempDir dir;
  const auto text_file = dir.path / "notes.pt2";
  write_file(text_file, "this is a text file, not a package\n");
  auto archive = ZipArchive::open(text_file);
  REQUIRE_FALSE(archive);
  CHECK(archive.error().message == "not a zip archive");

  const auto missing = ZipArchive::open(dir.path / "absent.pt2");
  REQUIRE_FALSE(missing);
  CHECK(missing.error().message == "no such file");

  const std::string bytes = aoti::test::read_file(corpus_package("custom-op-fake-static-rows"));
  for (const std::size_t cut :
       {std::size_t{4}, std::size_t{100}, bytes.size() / 3, bytes.size() / 2, bytes.size() - 200,
        bytes.size() - 30, bytes.size() - 1}) {
    CAPTURE(cut);
    const auto path = dir.path / ("cut-" + std::to_string(cut) + ".pt2");
    write_file(path, bytes.substr(0, cut));
    const auto cut_archive = ZipArchive::open(path);
    REQUIRE_FALSE(cut_archive);
    const std::string& message = cut_archive.error().message;
    CHECK_MESSAGE((message.starts_with("truncated") || message.starts_with("inconsistent")),
                  message);
  }
}

TEST_CASE("a deflated entry over the cap fails cleanly; in place reading needs a stored entry") {
  TempDir dir;
  const auto path = dir.path / "zeros.zip";
  write_zip(path, {{"zeros", std::string(8 << 20, '\0'), true}, {"small", "hello", true}});
  auto archive = ZipArchive::open(path);
  REQUIRE(archive);
  const ZipEntry* zeros = archive->find("zeros");
  REQUIRE(zeros);
  CHECK_FALSE(zeros->stored);
  CHECK(zeros->compressed_size < zeros->size);

  const auto capped = archive->read(*zeros, 1 << 20);
  REQUIRE_FALSE(capped);
  CHECK(capped.error().message == "entry zeros is 8 MiB, more than the 1 MiB limit");
  const auto whole = archive->read(*zeros, 16 << 20);
  REQUIRE(whole);
  CHECK(whole->size() == 8u << 20);
  CHECK(*archive->read(*archive->find("small"), 16) == "hello");

  const auto in_place = archive->open_stored(*zeros);
  REQUIRE_FALSE(in_place);
  CHECK(in_place.error().message.find("compressed") != std::string::npos);
}

TEST_CASE("an entry that inflates past its declared size is refused") {
  TempDir dir;
  const auto path = dir.path / "bomb.zip";
  write_zip(path, {{"bomb", std::string(8 << 20, '\0'), true}});
  std::string bytes = aoti::test::read_file(path);
  // Make the headers lie: both the local and the central record now claim 1,000 bytes.
  const auto patch_size = [&](std::size_t at) {
    const std::uint32_t small = 1000;
    std::memcpy(bytes.data() + at, &small, sizeof small);
  };
  REQUIRE(bytes.compare(0, 4, "PK\x03\x04") == 0);
  patch_size(22);
  const auto central = bytes.find("PK\x01\x02");
  REQUIRE(central != std::string::npos);
  patch_size(central + 24);
  write_file(path, bytes);

  auto archive = ZipArchive::open(path);
  REQUIRE(archive);
  const ZipEntry* bomb = archive->find("bomb");
  REQUIRE(bomb);
  CHECK(bomb->size == 1000);
  const auto data = archive->read(*bomb, 1 << 20);
  REQUIRE_FALSE(data);
  CHECK_MESSAGE(!data.error().message.empty(), data.error().message);
  CHECK(data.error().message.find("bomb") != std::string::npos);
}

TEST_CASE("ZIP64 archives are recognised and read") {
  TempDir dir;
  const auto path = dir.path / "many.zip";
  // More entries than a classic end record can count: libzip then writes ZIP64 records.
  std::vector<NewEntry> entries;
  for (int i = 0; i < 66000; ++i)
    entries.push_back({"e/" + std::to_string(i), std::to_string(i), false});
  entries.push_back({"last", "the last entry", false});
  write_zip(path, entries);

  auto archive = ZipArchive::open(path);
  REQUIRE(archive);
  CHECK(archive->entries().size() == 66001);
  const ZipEntry* last = archive->find("last");
  REQUIRE(last);
  auto source = archive->open_stored(*last);
  REQUIRE(source);
  std::string text(last->size, '\0');
  (*source)->read(0, std::as_writable_bytes(std::span(text)));
  CHECK(text == "the last entry");
  CHECK(*archive->read(*archive->find("e/65999"), 16) == "65999");
}

TEST_CASE(
    "deflated entries: text read back, a wrong CRC-32, a cut stream and other methods named") {
  TempDir dir;
  std::string text;
  for (int i = 0; i < 5000; ++i) text += "line " + std::to_string(i) + " of a wrapper\n";
  const auto path = dir.path / "deflated.zip";
  write_zip(path, {{"text", text, true}, {"other", "x", false}});
  const std::string bytes = aoti::test::read_file(path);
  {
    auto archive = ZipArchive::open(path);
    REQUIRE(archive);
    CHECK(*archive->read(*archive->find("text"), 1 << 20) == text);
  }
  const std::size_t central = bytes.find("PK\x01\x02");
  REQUIRE(central != std::string::npos);
  const auto patched = [&](const std::string& name, std::size_t at, std::uint16_t value,
                           std::size_t also = std::string::npos) {
    std::string copy = bytes;
    std::memcpy(copy.data() + at, &value, sizeof value);
    if (also != std::string::npos) std::memcpy(copy.data() + also, &value, sizeof value);
    write_file(dir.path / name, copy);
    return dir.path / name;
  };

  // Both CRC-32 fields of the first entry changed: the header check passes, the content does not.
  auto bad_crc = ZipArchive::open(patched("crc.zip", 14, 0x1234, central + 16));
  REQUIRE(bad_crc);
  const auto crc_read = bad_crc->read(*bad_crc->find("text"), 1 << 20);
  REQUIRE_FALSE(crc_read);
  CHECK(crc_read.error().message == "entry text fails its CRC-32 check");

  // The compressed size cut to a tenth in both headers: the stream ends early.
  std::string cut = bytes;
  std::uint32_t compressed = 0;
  std::memcpy(&compressed, cut.data() + 18, sizeof compressed);
  compressed /= 10;
  std::memcpy(cut.data() + 18, &compressed, sizeof compressed);
  std::memcpy(cut.data() + central + 20, &compressed, sizeof compressed);
  write_file(dir.path / "cut.zip", cut);
  auto cut_archive = ZipArchive::open(dir.path / "cut.zip");
  REQUIRE(cut_archive);
  const auto cut_read = cut_archive->read(*cut_archive->find("text"), 1 << 20);
  REQUIRE_FALSE(cut_read);
  CHECK_MESSAGE(cut_read.error().message.starts_with("truncated: entry text ends after"),
                cut_read.error().message);

  // Method 12 (bzip2) in both headers: named, not read.
  auto bzip2 = ZipArchive::open(patched("bzip2.zip", 8, 12, central + 10));
  REQUIRE(bzip2);
  const auto bzip2_read = bzip2->read(*bzip2->find("text"), 1 << 20);
  REQUIRE_FALSE(bzip2_read);
  CHECK(bzip2_read.error().message ==
        "entry text is compressed with bzip2, which is not read (only stored and deflated entries "
        "are)");
  CHECK(*bzip2->read(*bzip2->find("other"), 16) == "x");

  // The local header names another method than the central record.
  auto disagree = ZipArchive::open(patched("disagree.zip", 8, 0));
  REQUIRE(disagree);
  const auto disagree_read = disagree->read(*disagree->find("text"), 1 << 20);
  REQUIRE_FALSE(disagree_read);
  CHECK(disagree_read.error().message ==
        "inconsistent zip archive: the local header of text disagrees with the central directory "
        "(compression method)");
}
