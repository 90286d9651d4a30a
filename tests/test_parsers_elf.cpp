#include <doctest/doctest.h>

#include <stdlib.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <fstream>
#include <random>
#include <set>
#include <span>

#include "parsers/elf/elf_reader.hpp"
#include "tests/support.hpp"

namespace {
using namespace aoti::test;

namespace fs = std::filesystem;
using aoti::model::ElfFacts;
using aoti::parsers::open_file;
using aoti::parsers::open_memory;
using aoti::parsers::elf::read_shared_object;

// nm -D --defined-only: these three link libstdc++ statically (`T _ZNSt6locale13_S_initializeEv`
// and thousands more), the other five need libstdc++.so.6 and define only weak instantiations.
const std::set<std::string> k_static_cases = {"load-crash-static-libstdcxx", "const-cpu-buffer",
                                              "cpp-meta-sizes"};
const std::set<std::string> k_dynamic_cases = {
    "cpu-package-cuda-input-segv", "custom-op-fake-static-rows", "embedding-device-assert",
    "healthy-cuda-dynamic", "input-check-errors"};

std::string model_so(const std::string& case_name) {
  return aoti::test::corpus_entry_text(case_name, ".wrapper.so");
}

aoti::parsers::Parsed<ElfFacts> read_bytes(const std::string& bytes) {
  return read_shared_object(*open_memory(bytes), {"model.pt2", "x.wrapper.so", 0});
}

bool contains(const std::vector<std::string>& list, const std::string& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

template <class T>
T field(const std::string& bytes, std::size_t offset) {
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof value);
  return value;
}

}  // namespace

TEST_CASE("model .so facts: machine, DT_NEEDED, build-id, .comment") {
  std::set<std::string> all = k_static_cases;
  all.insert(k_dynamic_cases.begin(), k_dynamic_cases.end());
  for (const auto& name : all) {
    CAPTURE(name);
    const auto facts = read_bytes(model_so(name));
    REQUIRE(facts);
    CHECK(facts->machine == "x86_64");
    CHECK(facts->where.entry == "x.wrapper.so");
    CHECK(contains(facts->needed, "libc.so.6"));
    CHECK(contains(facts->needed, "libtorch.so"));
    CHECK(facts->soname.empty());
    CHECK(facts->build_id.size() == 40);
    CHECK(std::all_of(facts->build_id.begin(), facts->build_id.end(),
                      [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }));
    REQUIRE_FALSE(facts->comments.empty());
    CHECK(facts->comments.front().starts_with("GCC: "));
    CHECK(facts->defined_dynamic_symbols > 30);
  }
  CHECK(contains(read_bytes(model_so("healthy-cuda-dynamic"))->needed, "libcuda.so.1"));
  CHECK_FALSE(
      contains(read_bytes(model_so("cpu-package-cuda-input-segv"))->needed, "libcuda.so.1"));
}

TEST_CASE("static libstdc++ is told apart from dynamic libstdc++ with margin") {
  for (const auto& name : k_static_cases) {
    CAPTURE(name);
    const auto facts = read_bytes(model_so(name));
    REQUIRE(facts);
    CHECK_FALSE(contains(facts->needed, "libstdc++.so.6"));
    CHECK(facts->cxx_runtime_symbol_count > 500);
    CHECK(facts->cxx_runtime_symbols.size() == 32);
    CHECK(std::any_of(facts->cxx_runtime_symbols.begin(), facts->cxx_runtime_symbols.end(),
                      [](const std::string& s) { return s.starts_with("__cxa_"); }));
  }
  for (const auto& name : k_dynamic_cases) {
    CAPTURE(name);
    const auto facts = read_bytes(model_so(name));
    REQUIRE(facts);
    CHECK(contains(facts->needed, "libstdc++.so.6"));
    // ~360 std:: symbols are defined here, all weak template instantiations: none count.
    CHECK(facts->cxx_runtime_symbol_count < 10);
    CHECK(facts->cxx_runtime_symbols.size() == facts->cxx_runtime_symbol_count);
  }
}

TEST_CASE("reading from a file gives the same facts as from memory") {
  TempDir dir;
  const std::string bytes = model_so("cpp-meta-sizes");
  const auto path = dir.path / "model.so";
  std::ofstream(path, std::ios::binary)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  const auto from_file = read_shared_object(*open_file(path), {path.string(), "", 0});
  const auto from_memory = read_bytes(bytes);
  REQUIRE(from_file);
  REQUIRE(from_memory);
  CHECK(from_file->build_id == from_memory->build_id);
  CHECK(from_file->needed == from_memory->needed);
  CHECK(from_file->cxx_runtime_symbols == from_memory->cxx_runtime_symbols);
}

TEST_CASE("bad input: not ELF, wrong class, a core, truncated tables") {
  const auto not_elf =
      read_bytes("#!/bin/sh\necho this is a shell script, long enough to hold a header.......\n");
  REQUIRE_FALSE(not_elf);
  CHECK(not_elf.error().message == "not an ELF file");

  const auto tiny = read_bytes(
      "\x7f"
      "ELF");
  REQUIRE_FALSE(tiny);
  CHECK(tiny.error().message.find("too short") != std::string::npos);

  const std::string so = model_so("healthy-cuda-dynamic");
  std::string elf32 = so;
  elf32[4] = 1;
  CHECK(read_bytes(elf32).error().message == "not a 64-bit ELF file");

  std::string core = so;
  core[16] = 4;  // e_type = ET_CORE
  CHECK(read_bytes(core).error().message.find("core dump") != std::string::npos);

  const auto shoff = field<std::uint64_t>(so, 40);
  const auto shnum = field<std::uint16_t>(so, 60);
  REQUIRE(shoff + shnum * 64u == so.size());
  for (const std::size_t cut : {shoff + 5, shoff + 64 * 10 + 3, so.size() - 1}) {
    CAPTURE(cut);
    const auto truncated = read_bytes(so.substr(0, cut));
    REQUIRE_FALSE(truncated);
    CHECK(truncated.error().message ==
          "truncated: section header table ends past the end of the file");
  }

  // A section header whose contents run past the end of the file (.dynstr grown by 16 MiB).
  std::string long_strings = so;
  for (std::uint16_t i = 0; i < shnum; ++i) {
    const std::size_t header = shoff + i * 64u;
    if (field<std::uint32_t>(so, header + 4) != 3 || field<std::uint64_t>(so, header + 8) == 0)
      continue;  // the allocated SHT_STRTAB: .dynstr
    const std::uint64_t size = field<std::uint64_t>(so, header + 32) + (16u << 20);
    std::memcpy(long_strings.data() + header + 32, &size, sizeof size);
  }
  const auto past_end = read_bytes(long_strings);
  REQUIRE_FALSE(past_end);
  CHECK(past_end.error().message == "truncated: .dynstr ends past the end of the file");
}

TEST_CASE("a broken string table link is reported, not followed") {
  std::string so = model_so("healthy-cuda-dynamic");
  const auto shoff = field<std::uint64_t>(so, 40);
  const auto shnum = field<std::uint16_t>(so, 60);
  for (std::uint16_t i = 0; i < shnum; ++i) {
    const std::size_t header = shoff + i * 64u;
    if (field<std::uint32_t>(so, header + 4) != 11) continue;  // SHT_DYNSYM
    const std::uint32_t bad_link = 9999;
    std::memcpy(so.data() + header + 40, &bad_link, sizeof bad_link);
  }
  const auto facts = read_bytes(so);
  REQUIRE_FALSE(facts);
  CHECK(facts.error().message == ".dynsym links to no valid string table");
}

TEST_CASE("random corruption of headers and tables never crashes the reader") {
  const std::string so = model_so("custom-op-fake-static-rows");
  const auto shoff = field<std::uint64_t>(so, 40);
  std::mt19937 random(20240601);
  int failures = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string mutated = so;
    for (int flips = 0; flips < 4; ++flips) {
      // Half the flips hit the ELF and program headers, half the section header table.
      const std::size_t at =
          flips % 2 == 0 ? random() % 0x300 : shoff + random() % (so.size() - shoff);
      mutated[at] = static_cast<char>(random());
    }
    const auto facts = read_bytes(mutated);
    if (!facts) {
      ++failures;
      CHECK_FALSE(facts.error().message.empty());
    }
  }
  CHECK(failures > 0);
}

TEST_CASE(
    "a bare model .so: the AOTI model container API marks it a model, other shared objects not") {
  TempDir dir;
  std::set<std::string> all = k_static_cases;
  all.insert(k_dynamic_cases.begin(), k_dynamic_cases.end());
  for (const auto& name : all) {
    CAPTURE(name);
    // The package's own .so, written out as a bare file the way torch._export.aot_compile leaves
    // one.
    const auto path = dir.path / (name + ".so");
    write_file(path, model_so(name));
    const auto facts = aoti::parsers::elf::read_shared_object_file(path, {path.string(), "", 0});
    REQUIRE(facts);
    CHECK(contains(facts->aoti_exports, "AOTInductorModelContainerCreateWithDevice"));
    CHECK(contains(facts->aoti_exports, "AOTInductorModelContainerRun"));
    CHECK(contains(facts->aoti_exports, "AOTInductorModelContainerDelete"));
    CHECK(std::is_sorted(facts->aoti_exports.begin(), facts->aoti_exports.end()));
    CHECK(aoti::parsers::elf::is_aoti_model(*facts));
    CHECK(facts->build_id == read_bytes(model_so(name))->build_id);
  }
  // The C runtime this test runs with: a shared object, no model.
  for (const char* library :
       {"/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/x86_64-linux-gnu/libc.so.6"}) {
    if (!fs::exists(library)) continue;
    const auto facts = aoti::parsers::elf::read_shared_object_file(library, {library, "", 0});
    REQUIRE(facts);
    CHECK(facts->aoti_exports.empty());
    CHECK_FALSE(aoti::parsers::elf::is_aoti_model(*facts));
    break;
  }
  // A missing file is a parse error, not an exception.
  CHECK_FALSE(
      aoti::parsers::elf::read_shared_object_file(dir.path / "missing.so", {"missing.so", "", 0}));
}

TEST_CASE("reading 0 bytes of an empty in-memory range is no pointer arithmetic on a null view") {
  // UBSan: `m_bytes.data() + offset` on a default string_view (found by fuzzing the ELF reader).
  const auto range = open_memory(std::string_view());
  CHECK(range->size() == 0);
  std::array<std::byte, 1> none{};
  range->read(0, std::span<std::byte>(none.data(), 0));
  CHECK_THROWS(range->read(0, std::span<std::byte>(none)));
}
