// A core cut while it is read (a scan of a folder a crashing process still dumps into): the
// memory past the file's new end reads as zeros instead of ending the process with SIGBUS, the
// image says it was cut, and read_core does not use it.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>

#include "parsers/coredump/core_image.hpp"
#include "support.hpp"

namespace {

using aoti::parsers::coredump::CoreImage;

constexpr std::uint64_t k_load_address = 0x400000;
constexpr std::size_t k_page = 4096;

template <typename T>
void put(std::string& bytes, std::size_t at, T value) {
  std::memcpy(bytes.data() + at, &value, sizeof value);
}

// An x86-64 ELF core: the ELF header, one PT_NOTE holding an NT_PRPSINFO, and one PT_LOAD of
// three pages of 'm' at k_load_address, stored from the second page of the file on.
std::string small_core() {
  std::string core(4 * k_page, '\0');
  std::memcpy(core.data(),
              "\x7f"
              "ELF\x02\x01\x01",
              7);
  put<std::uint16_t>(core, 16, 4);   // e_type ET_CORE
  put<std::uint16_t>(core, 18, 62);  // e_machine EM_X86_64
  put<std::uint32_t>(core, 20, 1);   // e_version
  put<std::uint64_t>(core, 32, 64);  // e_phoff
  put<std::uint16_t>(core, 52, 64);  // e_ehsize
  put<std::uint16_t>(core, 54, 56);  // e_phentsize
  put<std::uint16_t>(core, 56, 2);   // e_phnum
  const std::size_t note_at = 64 + 2 * 56;
  const std::size_t prpsinfo_size = 136;
  const std::size_t note_size = 12 + 8 + prpsinfo_size;
  // PT_NOTE
  put<std::uint32_t>(core, 64, 4);
  put<std::uint64_t>(core, 64 + 8, note_at);
  put<std::uint64_t>(core, 64 + 32, note_size);
  // PT_LOAD, readable
  put<std::uint32_t>(core, 120, 1);
  put<std::uint32_t>(core, 120 + 4, 4);
  put<std::uint64_t>(core, 120 + 8, k_page);
  put<std::uint64_t>(core, 120 + 16, k_load_address);
  put<std::uint64_t>(core, 120 + 32, 3 * k_page);
  put<std::uint64_t>(core, 120 + 40, 3 * k_page);
  put<std::uint64_t>(core, 120 + 48, k_page);
  // The note: "CORE", NT_PRPSINFO (3), pid 4242, fname "python".
  put<std::uint32_t>(core, note_at, 5);
  put<std::uint32_t>(core, note_at + 4, prpsinfo_size);
  put<std::uint32_t>(core, note_at + 8, 3);
  std::memcpy(core.data() + note_at + 12, "CORE", 5);
  put<std::int32_t>(core, note_at + 20 + 24, 4242);
  std::memcpy(core.data() + note_at + 20 + 40, "python", 6);
  std::memset(core.data() + k_page, 'm', 3 * k_page);
  return core;
}

}  // namespace

TEST_CASE(
    "a core cut after it was opened: its memory past the cut reads as zeros, and it says so") {
  aoti::test::TempDir dir;
  const auto path = dir.path / "core";
  aoti::test::write_file(path, small_core());
  auto image = CoreImage::open(aoti::util::Fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC)), "core",
                               CoreImage::Source::dump);
  REQUIRE(image);
  CHECK(image->notes().pid == 4242);
  std::array<std::byte, 8> bytes{};
  REQUIRE(image->read(k_load_address + 2 * k_page, bytes) == bytes.size());
  CHECK(bytes[0] == std::byte{'m'});
  CHECK_FALSE(image->cut_while_read());

  REQUIRE(::truncate(path.c_str(), 2 * k_page) == 0);  // the first page of memory is left
  REQUIRE(image->read(k_load_address + 16, bytes) == bytes.size());
  CHECK(bytes[0] == std::byte{'m'});
  REQUIRE(image->read(k_load_address + 2 * k_page + 8, bytes) == bytes.size());  // SIGBUS unguarded
  CHECK(bytes[0] == std::byte{0});
  CHECK(image->cut_while_read());
}
