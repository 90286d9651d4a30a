// The core reader on broken copies of the corpus's real cores: cut anywhere, without NT_FILE, for
// another machine, garbage and cut or corrupted compressed streams, a module path naming a FIFO,
// notes cut short, a thread id of 0: facts or a clear error, never a crash or a hang.
#include <doctest/doctest.h>

#include <gelf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <string_view>

#include "parsers/coredump/core_reader.hpp"
#include "tests/parsers_coredump_support.hpp"

using aoti::model::CoreFacts;
using aoti::model::CoreThread;
using aoti::parsers::coredump::read_core;
using namespace aoti::test::coredump;

namespace {

// The seed core with one CORE note's descriptor cut to `size` bytes; the bytes it gave up become
// a note of an unknown owner, so that every note after it is still where it was.
std::string with_short_note(const std::string& raw, std::string_view type, std::uint32_t size) {
  const std::string type_and_name = std::string(type) + std::string("CORE\0\0\0\0", 8);
  const auto at = raw.find(type_and_name);
  REQUIRE(at != std::string::npos);
  std::uint32_t old_size = 0;
  std::memcpy(&old_size, raw.data() + at - 4, sizeof old_size);
  REQUIRE(old_size >= size + 12);
  REQUIRE((old_size - size) % 4 == 0);
  std::string copy = raw;
  std::memcpy(copy.data() + at - 4, &size, sizeof size);
  const std::uint32_t filler[3] = {0, old_size - size - 12,
                                   0x4e4f4e45};  // no owner, the rest, "ENON"
  std::memcpy(copy.data() + at + type_and_name.size() + size, filler, sizeof filler);
  return copy;
}

}  // namespace

TEST_CASE("core: a core cut anywhere gives facts or a clear error, never a crash") {
  const std::string& raw = seed("load-crash-static-libstdcxx").raw;
  std::mt19937_64 random(20240611);
  for (int i = 0; i < 10; ++i) {
    const std::size_t cut = random() % raw.size();
    CAPTURE(cut);
    auto facts = read_bytes(raw.substr(0, cut), "cut.core");
    if (!facts) {
      CHECK(!facts.error().message.empty());
      continue;
    }
    CHECK(facts->truncated);
    CHECK(mentions(*facts, "truncated"));
  }
  auto empty = read_bytes("", "empty.core");
  REQUIRE_FALSE(empty);
  CHECK(empty.error().message.find("not") != std::string::npos);
}

TEST_CASE("core: without NT_FILE, for another machine, with garbage or a cut xz stream") {
  const std::string& raw = seed("cpu-package-cuda-input-segv").raw;
  SUBCASE("NT_FILE removed") {
    std::string copy = raw;
    const char file_type[] = {'E', 'L', 'I', 'F'};  // 0x46494c45 little-endian
    const auto at = copy.find(std::string_view(file_type, 4));
    REQUIRE(at != std::string::npos);
    copy[at] = 'X';  // an unknown note type now
    auto facts = read_bytes(copy, "no-file.core");
    REQUIRE(facts);
    CHECK_FALSE(facts->has_file_note);
    CHECK(mentions(*facts, "no NT_FILE"));
    CHECK(facts->signal_name == "SIGSEGV");
  }
  SUBCASE("not x86-64") {
    std::string copy = raw;
    copy[18] = static_cast<char>(183);  // e_machine = EM_AARCH64
    copy[19] = 0;
    auto facts = read_bytes(copy, "arm.core");
    REQUIRE_FALSE(facts);
    CHECK(facts.error().message.find("only x86-64") != std::string::npos);
  }
  SUBCASE("xz garbage") {
    std::string bytes =
        "\xfd"
        "7zXZ";
    bytes += std::string(1, '\0') + std::string(4096, 'x');
    auto facts = read_bytes(bytes, "garbage.xz");
    REQUIRE_FALSE(facts);
    CHECK(facts.error().message.find("xz") != std::string::npos);
  }
  SUBCASE("xz stream cut") {
    const std::string xz =
        aoti::test::read_file(aoti::test::corpus_case("embedding-device-assert") / "core.xz");
    auto facts = read_bytes(xz.substr(0, xz.size() / 3), "cut.xz");
    REQUIRE(facts);
    CHECK(mentions(*facts, "ends early"));
    CHECK(facts->signal_name == "SIGABRT");
  }
}

TEST_CASE("core: a module path naming a FIFO on this machine is never opened") {
  // The same-length FIFO path replaces an ELF module's path in the NT_FILE note (and elsewhere):
  // libdwfl would open it.
  const std::string prefix = (scratch().path / "fifo-").string();
  // Only a module whose first page lies within the kept prefix shows libdwfl its ELF header.
  std::string copy, original, signal;
  for (const std::string& case_name : k_core_cases) {
    const SeedCore& core = seed(case_name);
    copy = core.raw;
    signal = core.facts.signal_name;
    elf_version(EV_CURRENT);
    Elf* elf = elf_memory(copy.data(), copy.size());
    REQUIRE(elf);
    auto in_prefix = [&](std::uint64_t address) {
      std::size_t count = 0;
      if (elf_getphdrnum(elf, &count) != 0) return false;
      for (std::size_t i = 0; i < count; ++i) {
        GElf_Phdr phdr;
        if (gelf_getphdr(elf, static_cast<int>(i), &phdr) && phdr.p_type == PT_LOAD &&
            address >= phdr.p_vaddr && address < phdr.p_vaddr + phdr.p_filesz)
          return phdr.p_offset + (address - phdr.p_vaddr) + 4096 <= copy.size();
      }
      return false;
    };
    for (const auto& module : core.facts.modules)
      if (!module.build_id.empty() && module.file_offset == 0 &&
          module.path.size() > prefix.size() && module.path[0] == '/' && in_prefix(module.start)) {
        original = module.path;
        break;
      }
    elf_end(elf);
    if (!original.empty()) break;
  }
  REQUIRE(!original.empty());
  const std::string fifo = prefix + std::string(original.size() - prefix.size(), 'x');
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::size_t replaced = 0;
  for (auto at = copy.find(original); at != std::string::npos; at = copy.find(original, at)) {
    copy.replace(at, original.size(), fifo);
    ++replaced;
  }
  REQUIRE(replaced > 0);
  // Opening the FIFO would block for ever: the alarm turns that into a failure.
  ::alarm(120);
  auto facts = read_bytes(copy, "fifo.core");
  ::alarm(0);
  std::filesystem::remove(fifo);
  REQUIRE(facts);
  CHECK(mentions(*facts, "a FIFO"));
  CHECK(facts->signal_name == signal);
}

TEST_CASE(
    "core: a compressed core whose stream breaks before any thread is read gives facts, not a "
    "crash") {
  // Found by mutating seed cores: one byte flipped early in the xz stream leaves a few KiB decoded,
  // libdwfl then fails without an error message (NULL), which must not reach a std::string.
  aoti::test::TempDir tmp;
  std::string xz =
      aoti::test::read_file(aoti::test::corpus_case("cpu-package-cuda-input-segv") / "core.xz");
  REQUIRE(xz.size() > 12950);
  xz[12950] = static_cast<char>(53);
  aoti::test::write_file(tmp.path / "core.xz", xz);
  auto facts = read_core(tmp.path / "core.xz", "core.xz", {});
  REQUIRE(facts);
  CHECK(facts->truncated);
  CHECK(std::any_of(facts->health.begin(), facts->health.end(), [](const std::string& note) {
    return note.find("incomplete") != std::string::npos;
  }));
}

TEST_CASE("core: a note cut short is reported, never read as zeros") {
  const std::string& raw = seed("cpu-package-cuda-input-segv").raw;
  SUBCASE("NT_SIGINFO without si_code: not a signal sent by a process") {
    auto facts = read_bytes(with_short_note(raw, "IGIS", 8), "short-siginfo.core");
    REQUIRE(facts);
    CHECK(mentions(*facts, "an NT_SIGINFO note is too short"));
    CHECK(facts->signal_name == "SIGSEGV");  // from the thread's pr_cursig
    CHECK(facts->signal_code_name.empty());
    CHECK_FALSE(facts->fault_address);
    CHECK_FALSE(facts->sender_pid);
  }
  SUBCASE("NT_PRPSINFO without its names") {
    auto facts = read_bytes(with_short_note(raw, std::string_view("\x03\0\0\0", 4), 32),
                            "short-prpsinfo.core");
    REQUIRE(facts);
    CHECK(mentions(*facts, "an NT_PRPSINFO note is too short"));
    CHECK(facts->process_name.empty());
    CHECK(facts->command_line.empty());
  }
}

// A fuzzer's find (fuzz/README.md): libdwfl's thread walk takes a thread id of 0 for the end of
// the threads and leaks its walk state; the reader does not hand it such a core.
TEST_CASE("core: a thread id of 0 in NT_PRSTATUS gives the registers' frames, not a libdwfl walk") {
  std::string copy = seed("cpu-package-cuda-input-segv").raw;
  // The first NT_PRSTATUS: namesz 5, descsz 336, type 1, "CORE"; pr_pid is at byte 32 of its desc.
  const std::string_view header("\x05\0\0\0\x50\x01\0\0\x01\0\0\0CORE\0\0\0\0", 20);
  const auto at = copy.find(header);
  REQUIRE(at != std::string::npos);
  std::memset(copy.data() + at + header.size() + 32, 0, 4);
  auto facts = read_bytes(copy, "tid-zero.core");
  REQUIRE(facts);
  REQUIRE_FALSE(facts->threads.empty());
  CHECK(facts->threads.front().frames.front().method == "initial");
  CHECK(facts->threads.front().unwind_error.find("0 or negative") != std::string::npos);
  CHECK(facts->signal_name == "SIGSEGV");
}
