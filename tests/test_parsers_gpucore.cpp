// The GPU core reader on real dumps (every corpus case with a gpu.nvcudmp.*), checked against
// cuda-gdb's own answer recorded in the case's expected.json, and on cut and corrupted copies of
// the seed dump: each gives facts or a diagnostic, never a crash.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "parsers/coredump/decompress.hpp"
#include "parsers/gpucore/gpu_core_reader.hpp"
#include "support.hpp"

namespace {

namespace fs = std::filesystem;
using aoti::model::GpuCoreFacts;
using aoti::parsers::gpucore::read_gpu_core;
using aoti::parsers::gpucore::read_gpu_core_bytes;
using nlohmann::json;

std::vector<fs::path> gpu_core_cases() {
  std::vector<fs::path> out;
  for (const auto& entry : fs::directory_iterator(aoti::test::corpus_dir()))
    for (const char* name : {"gpu.nvcudmp.xz", "gpu.nvcudmp.zst", "gpu.nvcudmp"})
      if (fs::exists(entry.path() / name)) out.push_back(entry.path() / name);
  std::sort(out.begin(), out.end());
  return out;
}

// The seed dump, decoded into memory once for the corruption tests.
const std::vector<std::byte>& seed_dump() {
  static const std::vector<std::byte> bytes = [] {
    const auto path = aoti::test::corpus_case("embedding-ima-gpu-core") / "gpu.nvcudmp.xz";
    auto decoded = aoti::parsers::coredump::decompress_to_private_file(
        path, aoti::parsers::coredump::Compression::xz, {});
    REQUIRE(decoded);
    std::vector<std::byte> out(decoded->size);
    std::size_t done = 0;
    while (done < out.size()) {
      const ssize_t got = ::pread(decoded->file.get(), out.data() + done, out.size() - done,
                                  static_cast<off_t>(done));
      REQUIRE(got > 0);
      done += static_cast<std::size_t>(got);
    }
    return out;
  }();
  return bytes;
}

std::uint64_t u64_at(const std::vector<std::byte>& b, std::size_t at) {
  std::uint64_t v = 0;
  std::memcpy(&v, b.data() + at, sizeof v);
  return v;
}

// Section headers of a dump, to corrupt one by name: (offset of its header, its name).
struct Header {
  std::size_t at = 0;
  std::string name;
  std::uint32_t type = 0;
};
std::vector<Header> headers(const std::vector<std::byte>& b) {
  const std::uint64_t shoff = u64_at(b, 0x28);
  std::uint16_t shnum = 0, shstrndx = 0;
  std::memcpy(&shnum, b.data() + 0x3c, 2);
  std::memcpy(&shstrndx, b.data() + 0x3e, 2);
  const std::uint64_t names = u64_at(b, shoff + shstrndx * 64 + 24);
  std::vector<Header> out;
  for (std::size_t i = 0; i < shnum; ++i) {
    const std::size_t at = shoff + i * 64;
    std::uint32_t name = 0, type = 0;
    std::memcpy(&name, b.data() + at, 4);
    std::memcpy(&type, b.data() + at + 4, 4);
    out.push_back({at, reinterpret_cast<const char*>(b.data() + names + name), type});
  }
  return out;
}

void put_u64(std::vector<std::byte>& b, std::size_t at, std::uint64_t v) {
  std::memcpy(b.data() + at, &v, sizeof v);
}

bool mentions(const GpuCoreFacts& facts, const std::string& text) {
  for (const auto& h : facts.health)
    if (h.find(text) != std::string::npos) return true;
  return false;
}

// The faulting warp's error location as the seed's cuda-gdb answer gives it.
const aoti::model::GpuWarp* first_warp(const GpuCoreFacts& f) {
  return f.faulting_warps.empty() ? nullptr : &f.faulting_warps.front();
}

}  // namespace

TEST_CASE("every corpus GPU core matches cuda-gdb's answer in its expected.json") {
  const auto cases = gpu_core_cases();
  REQUIRE(!cases.empty());
  for (const auto& dump : cases) {
    const json truth =
        json::parse(aoti::test::read_file(dump.parent_path() / "expected.json"))["cuda_gdb"];
    INFO("case " << dump.parent_path().filename().string());
    auto facts = read_gpu_core(dump, dump.filename().string());
    REQUIRE(facts);
    REQUIRE(!facts->devices.empty());
    const auto* warp = first_warp(*facts);
    REQUIRE(warp);
    CHECK(warp->exception_name == truth["exception"].get<std::string>());
    // cuda-gdb found no warp when the dump has none (its faulting warps had exited): then only
    // the SM table's exception and error PC are there, and the reader must say so.
    // A case's truth may leave out what cuda-gdb did not print (it aborted on
    // custom-cuda-op-gpu-core after the exception line): a missing field is not checked.
    const json block = truth.value("block", json());
    CHECK(warp->from_sm_table == block.is_null());
    if (!block.is_null()) {
      CHECK(warp->device == truth["device"].get<unsigned>());
      CHECK(warp->sm == truth["sm"].get<unsigned>());
      CHECK(warp->warp == truth["warp"].get<unsigned>());
      CHECK(warp->grid == truth["grid"].get<std::uint64_t>());
      CHECK(warp->block == truth["block"].get<aoti::model::Dim3>());
      REQUIRE(!warp->faulting_lanes.empty());
      CHECK(warp->faulting_lanes.front().thread == truth["thread"].get<aoti::model::Dim3>());
    }
    REQUIRE(warp->error);
    if (truth.contains("pc"))
      CHECK(warp->error->pc == std::stoull(truth["pc"].get<std::string>(), nullptr, 16));
    // cuda-gdb prints a C++ kernel demangled: the reader keeps the symbol and its demangled name.
    CHECK(warp->error->kernel_name == truth["kernel"].get<std::string>());
    CHECK(fs::path(warp->error->file).filename() == truth["file"].get<std::string>());
    CHECK(warp->error->line == truth["line"].get<int>());
    if (truth.contains("lightweight"))
      CHECK(facts->lightweight == truth["lightweight"].get<bool>());
    if (truth.contains("stop_line") && warp->stop) CHECK(warp->stop->line == truth["stop_line"]);
  }
}

TEST_CASE("a C++ kernel's symbol is demangled, and its lowest line table row anchors the file") {
  const auto dump = aoti::test::corpus_case("custom-cuda-op-gpu-core") / "gpu.nvcudmp.xz";
  auto facts = read_gpu_core(dump, "gpu.nvcudmp.xz");
  REQUIRE(facts);
  const auto* warp = first_warp(*facts);
  REQUIRE(warp);
  REQUIRE(warp->error);
  const auto& at = *warp->error;
  // The symbol stays as the cubin spells it; the demangled name is cuda-gdb's.
  CHECK(at.kernel == "_Z19scatter_rows_kernelPKfPKlPfll");
  CHECK(at.kernel_name == "scatter_rows_kernel(float const*, long const*, float*, long, long)");
  CHECK(fs::path(at.file).filename() == "rowops.cu");
  CHECK(at.line == 11);
  // rowops.cu names the kernel on line 5: nvcc's -lineinfo numbers its prologue with that line.
  CHECK(at.kernel_first_line == 5);
  // Triton kernels are not mangled: the name is the symbol.
  const auto triton = read_gpu_core(
      aoti::test::corpus_case("embedding-ima-gpu-core") / "gpu.nvcudmp.xz", "gpu.nvcudmp.xz");
  REQUIRE(triton);
  REQUIRE(first_warp(*triton));
  CHECK(first_warp(*triton)->error->kernel_name == first_warp(*triton)->error->kernel);
}

TEST_CASE("the seed GPU core: device, modules, the grid that faulted") {
  auto facts = read_gpu_core_bytes(seed_dump(), "gpu.nvcudmp");
  REQUIRE(facts);
  REQUIRE(facts->devices.size() == 1);
  CHECK(facts->devices[0].name == "NVIDIA H200");
  CHECK(facts->devices[0].sm_type == "sm_90");
  CHECK(facts->modules.size() == 33);
  REQUIRE(facts->grids.size() == 1);
  CHECK(facts->grids[0].entry.kernel == "triton_poi_fused_embedding_0");
  CHECK(facts->grids[0].entry.kernel_offset == 0);
  CHECK(facts->grids[0].block_dim == aoti::model::Dim3{256, 1, 1});
  CHECK(facts->driver_version == "580.159");
  CHECK(facts->health.empty());
  // All 32 lanes of warp 2 faulted.
  REQUIRE(facts->faulting_warps.size() == 1);
  CHECK(facts->faulting_warps[0].faulting_lanes.size() == 32);
}

TEST_CASE("a cut GPU core names the file and the problem") {
  const auto& dump = seed_dump();
  for (const std::size_t keep :
       {std::size_t{0}, std::size_t{63}, std::size_t{64}, dump.size() / 2, dump.size() - 100}) {
    INFO("kept " << keep << " bytes");
    std::vector<std::byte> cut(dump.begin(), dump.begin() + static_cast<long>(keep));
    auto facts = read_gpu_core_bytes(cut, "cut.nvcudmp");
    REQUIRE(!facts);
    CHECK(facts.error().message.find("cut.nvcudmp") != std::string::npos);
  }
  std::vector<std::byte> cut(dump.begin(), dump.begin() + static_cast<long>(dump.size() / 2));
  CHECK(read_gpu_core_bytes(cut, "cut.nvcudmp").error().message.find("truncated") !=
        std::string::npos);
}

TEST_CASE("corrupt tables give health notes and the rest of the dump") {
  const auto& dump = seed_dump();
  const auto all = headers(dump);
  auto header_of = [&](const std::string& prefix, std::uint32_t type) {
    for (const auto& h : all)
      if (h.name.rfind(prefix, 0) == 0 && h.type == type) return h;
    FAIL("no section " << prefix);
    return Header{};
  };
  const Header lanes = header_of(".cudbg.lntbl.dev0.sm126.cta0.wp2", 0x8000000f);
  const Header grids = header_of(".cudbg.gridtbl", 0x8000000c);
  const Header devices = header_of(".cudbg.devtbl", 0x80000009);

  SUBCASE("a table that points outside the file") {
    auto bad = dump;
    put_u64(bad, lanes.at + 24, bad.size() - 8);  // sh_offset
    auto facts = read_gpu_core_bytes(bad, "bad.nvcudmp");
    REQUIRE(facts);
    CHECK(mentions(*facts, "past the end of the file"));
    CHECK(facts->grids.size() == 1);
  }
  SUBCASE("a row size of 0") {
    auto bad = dump;
    put_u64(bad, grids.at + 56, 0);  // sh_entsize
    auto facts = read_gpu_core_bytes(bad, "bad.nvcudmp");
    REQUIRE(facts);
    CHECK(mentions(*facts, "rows of 0 bytes"));
    CHECK(facts->grids.empty());
    CHECK(facts->faulting_warps.size() == 1);
  }
  SUBCASE("a bad warp table, read through each of its eight lane tables, is told once") {
    auto bad = dump;
    put_u64(bad, header_of(".cudbg.wptbl.dev0.sm126.cta0", 0x8000000e).at + 56, 0);
    auto facts = read_gpu_core_bytes(bad, "bad.nvcudmp");
    REQUIRE(facts);
    CHECK(std::count_if(facts->health.begin(), facts->health.end(), [](const std::string& h) {
            return h.find("rows of 0 bytes") != std::string::npos;
          }) == 1);
    CHECK(facts->faulting_warps.empty() == false);  // the SM table still records the exception
  }
  SUBCASE("a row size larger than its section") {
    auto bad = dump;
    put_u64(bad, lanes.at + 56, 1 << 20);
    auto facts = read_gpu_core_bytes(bad, "bad.nvcudmp");
    REQUIRE(facts);
    CHECK(mentions(*facts, "more than the section"));
  }
  SUBCASE("a device table with a huge string offset reads as no name") {
    auto bad = dump;
    const std::uint64_t offset = u64_at(bad, devices.at + 24);
    put_u64(bad, offset, ~std::uint64_t{0});
    auto facts = read_gpu_core_bytes(bad, "bad.nvcudmp");
    REQUIRE(facts);
    REQUIRE(facts->devices.size() == 1);
    CHECK(facts->devices[0].name.empty());
  }
  SUBCASE("a cubin image that is not ELF") {
    auto bad = dump;
    // Every relocated image loses its ELF magic: the kernel cannot be named, and the dump says why.
    for (const auto& h : all)
      if (h.type == 0x80000007) std::memset(bad.data() + u64_at(bad, h.at + 24), 'x', 4);
    auto facts = read_gpu_core_bytes(bad, "bad.nvcudmp");
    REQUIRE(facts);
    CHECK(mentions(*facts, "not an ELF file"));
    REQUIRE(facts->faulting_warps.size() == 1);
    REQUIRE(facts->faulting_warps[0].error);
    CHECK(facts->faulting_warps[0].error->kernel.empty());
    CHECK(!facts->faulting_warps[0].error->problem.empty());
  }
  SUBCASE("links and infos that name the wrong tables") {
    auto bad = dump;
    std::uint32_t link = 9999;
    std::memcpy(bad.data() + lanes.at + 40, &link, 4);  // sh_link
    auto facts = read_gpu_core_bytes(bad, "bad.nvcudmp");
    REQUIRE(facts);
    CHECK(mentions(*facts, "does not link"));
  }
}

TEST_CASE("random damage to the tables and headers never crashes the reader") {
  const auto& dump = seed_dump();
  const auto all = headers(dump);
  std::vector<std::size_t> table_bytes;  // the section headers and every small table's bytes
  for (const auto& h : all) {
    for (std::size_t i = 0; i < 64; ++i) table_bytes.push_back(h.at + i);
    const std::uint64_t offset = u64_at(dump, h.at + 24), size = u64_at(dump, h.at + 32);
    if (h.type >= 0x80000009 && h.type <= 0x80000010 && size <= 4096)
      for (std::size_t i = 0; i < size; ++i) table_bytes.push_back(offset + i);
  }
  std::mt19937 random(20261201);
  auto bad = dump;
  for (int round = 0; round < 40; ++round) {
    std::vector<std::pair<std::size_t, std::byte>> saved;
    for (int flip = 0; flip < 16; ++flip) {
      const std::size_t at = table_bytes[random() % table_bytes.size()];
      saved.emplace_back(at, bad[at]);
      bad[at] = static_cast<std::byte>(random());
    }
    auto facts = read_gpu_core_bytes(bad, "fuzzed.nvcudmp");
    if (!facts) CHECK(!facts.error().message.empty());
    for (auto it = saved.rbegin(); it != saved.rend(); ++it) bad[it->first] = it->second;
  }
}
