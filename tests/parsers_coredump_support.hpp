// What the core reader's tests share: the corpus cases with a core, each case's model .so by build
// id, each seed core read once per test process and its first bytes kept for broken copies, a
// core read from bytes, a health note looked up.
#pragma once

#include <doctest/doctest.h>

#include <elfutils/libdwelf.h>
#include <gelf.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/coredump/core_reader.hpp"
#include "parsers/coredump/decompress.hpp"
#include "parsers/zip/zip_archive.hpp"
#include "tests/support.hpp"
#include "util/hex.hpp"

namespace aoti::test::coredump {

using model::CoreFacts;
using model::CoreThread;
using parsers::coredump::Compression;
using parsers::coredump::decompress_to_private_file;
using parsers::coredump::ModelObject;
using parsers::coredump::read_core;

inline const std::vector<std::string> k_core_cases = {
    "load-crash-static-libstdcxx", "cpu-package-cuda-input-segv", "embedding-device-assert"};

// The package's model .so, found and read with the zip parser and libelf alone (the pt2 parser
// is not linked into this test).
inline std::vector<ModelObject> models_of(const std::string& case_name) {
  const auto package = aoti::test::corpus_package(case_name);
  auto archive = aoti::parsers::zip::ZipArchive::open(package);
  REQUIRE(archive);
  std::vector<ModelObject> models;
  for (const auto& entry : archive->entries()) {
    if (!entry.name.ends_with(".so")) continue;
    auto bytes = archive->read(entry, 1ull << 30);
    REQUIRE(bytes);
    elf_version(EV_CURRENT);
    Elf* elf = elf_memory(bytes->data(), bytes->size());
    REQUIRE(elf);
    const void* id = nullptr;
    const ssize_t length = dwelf_elf_gnu_build_id(elf, &id);
    REQUIRE(length > 0);
    std::string build_id = aoti::util::hex_bytes(id, static_cast<std::size_t>(length));
    elf_end(elf);
    models.push_back({std::move(build_id), package.string(), entry.name});
  }
  REQUIRE(models.size() == 1);
  return models;
}

// Each seed core decompressed once per test process (by the reader itself, into a private
// file that is gone when it closes), then kept as plain bytes for the broken-copy tests.
struct SeedCore {
  CoreFacts facts;
  std::string raw;  // the first k_prefix bytes of the decompressed core (or all of it)
};
inline constexpr std::size_t k_prefix = 24 << 20;

inline aoti::test::TempDir& scratch() {
  static aoti::test::TempDir dir;
  return dir;
}

inline const SeedCore& seed(const std::string& case_name) {
  static std::map<std::string, SeedCore> cache;
  if (auto found = cache.find(case_name); found != cache.end()) return found->second;
  const auto xz = aoti::test::corpus_case(case_name) / "core.xz";
  auto facts = read_core(xz, case_name + "/core.xz", models_of(case_name));
  REQUIRE_MESSAGE(facts, (facts ? "" : facts.error().message));
  // The raw prefix, for the truncation and patching tests, from the reader's own decompressor
  // stopped at k_prefix bytes (a slimmed core is shorter: then all of it).
  auto prefix = decompress_to_private_file(xz, Compression::xz, {.max_bytes = k_prefix});
  REQUIRE(prefix);
  REQUIRE(prefix->size > 0);
  REQUIRE(prefix->size <= k_prefix);
  SeedCore core{std::move(*facts), std::string(prefix->size, '\0')};
  REQUIRE(::pread(prefix->file.get(), core.raw.data(), core.raw.size(), 0) ==
          static_cast<ssize_t>(core.raw.size()));
  return cache.emplace(case_name, std::move(core)).first->second;
}

inline aoti::parsers::Parsed<CoreFacts> read_bytes(const std::string& bytes,
                                                   const std::string& name,
                                                   const std::vector<ModelObject>& models = {}) {
  const auto path = scratch().path / name;
  aoti::test::write_file(path, bytes);
  auto facts = read_core(path, name, models);
  std::filesystem::remove(path);
  return facts;
}

inline bool mentions(const CoreFacts& core, std::string_view text) {
  return std::any_of(core.health.begin(), core.health.end(),
                     [&](const std::string& note) { return note.find(text) != std::string::npos; });
}

}  // namespace aoti::test::coredump
