// The fault a core's signal describes, decoded against the core's own memory map: on the real
// crashes, and on seed cores whose NT_SIGINFO is rewritten to fault at guard pages, past mappings,
// at null offsets and in the kernel half, or as SI_KERNEL (a general protection fault).
#include <doctest/doctest.h>

#include <fcntl.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "parsers/coredump/core_image.hpp"
#include "parsers/coredump/core_reader.hpp"
#include "tests/parsers_coredump_support.hpp"

using aoti::model::CoreFacts;
using aoti::model::CoreThread;
using aoti::parsers::coredump::read_core;
using namespace aoti::test::coredump;

namespace {

// The seed core with its NT_SIGINFO rewritten: the same process, threads and memory map, faulting
// with `code` at `address` (the kernel's siginfo_t: si_signo 0, si_code 8, si_addr 16).
std::string with_fault(const std::string& raw, int code, std::uint64_t address) {
  const std::string type_and_name(
      "IGIS"
      "CORE\0\0\0\0",
      12);  // NT_SIGINFO (0x53494749), "CORE"
  const auto at = raw.find(type_and_name);
  REQUIRE(at != std::string::npos);
  std::string copy = raw;
  const std::size_t desc = at + type_and_name.size();
  std::memcpy(copy.data() + desc + 8, &code, sizeof code);
  std::memcpy(copy.data() + desc + 16, &address, sizeof address);
  return copy;
}

// The crashing core's memory map, read with the reader's own image class.
struct SeedMap {
  std::vector<aoti::parsers::coredump::Segment> segments;
  std::vector<std::pair<int, std::uint64_t>> stacks;  // tid, stack pointer
};

SeedMap seed_map(const std::string& raw) {
  const auto path = scratch().path / "map.core";
  aoti::test::write_file(path, raw);
  auto image = aoti::parsers::coredump::CoreImage::open(
      aoti::util::Fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC)), "map.core",
      aoti::parsers::coredump::CoreImage::Source::dump);
  REQUIRE(image);
  SeedMap map{image->segments(), {}};
  for (const auto& thread : image->notes().threads)
    map.stacks.emplace_back(thread.tid, thread.sp());
  std::filesystem::remove(path);
  return map;
}

}  // namespace

TEST_CASE("core: the fault address decoded against the core's own map, on the real crashes") {
  CHECK(seed("load-crash-static-libstdcxx").facts.fault_kind == "null");
  CHECK(seed("load-crash-static-libstdcxx")
            .facts.fault_region.find("a null pointer was dereferenced") != std::string::npos);
  CHECK(seed("cpu-package-cuda-input-segv").facts.fault_kind == "device");
  // SIGABRT from abort(): sent by the process itself, no fault at all.
  CHECK(seed("embedding-device-assert").facts.fault_kind.empty());
  CHECK(seed("embedding-device-assert").facts.fault_region.empty());
  // The custom op's index of 2**40 sent its pointer terabytes away from any mapping.
  const CoreFacts& wild = seed("custom-op-kernel-crash").facts;
  CHECK(wild.fault_kind == "unmapped");
  CHECK(wild.fault_region.find("far from every mapping") != std::string::npos);
  CHECK(wild.fault_region.find("out-of-range index") != std::string::npos);
}

TEST_CASE(
    "core: SI_KERNEL is a general protection fault without an address, never a null pointer") {
  const std::string& raw = seed("load-crash-static-libstdcxx").raw;
  auto facts = read_bytes(with_fault(raw, 0x80, 0), "gp.core");
  REQUIRE(facts);
  CHECK(facts->signal_name == "SIGSEGV");
  CHECK(facts->signal_code_name == "SI_KERNEL");
  CHECK_FALSE(facts->fault_address.has_value());
  CHECK(facts->fault_kind == "general-protection");
  CHECK(facts->fault_region.find("does not mean a null pointer") != std::string::npos);
  CHECK(facts->fault_region.find("non-canonical") != std::string::npos);
  CHECK(facts->fault_region.find("null pointer was dereferenced") == std::string::npos);
  // The crashing thread's registers in this core: r11 holds a non-canonical value (scratch data).
  CHECK(facts->fault_region.find("hold a non-canonical value") != std::string::npos);
  CHECK(facts->fault_region.find("r11 = 0x") != std::string::npos);
}

TEST_CASE("core: guard pages, overruns, null offsets and the kernel half, in a real memory map") {
  const std::string& raw = seed("custom-op-kernel-crash").raw;
  const SeedMap map = seed_map(raw);
  const auto segment_at = [&](std::uint64_t va) -> const aoti::parsers::coredump::Segment* {
    for (const auto& s : map.segments)
      if (s.contains(va)) return &s;
    return nullptr;
  };
  SUBCASE("the PROT_NONE page below a thread's stack: a stack overflow") {
    // A second thread's stack and the guard page glibc put below it.
    const aoti::parsers::coredump::Segment* guard = nullptr;
    int tid = 0;
    for (const auto& [thread, sp] : map.stacks) {
      const auto* stack = segment_at(sp);
      if (!stack || thread == map.stacks.front().first) continue;
      const auto* below = segment_at(stack->vaddr - 1);
      if (below && below->flags == 0 && below->end() == stack->vaddr) guard = below, tid = thread;
      if (guard) break;
    }
    REQUIRE(guard != nullptr);
    auto facts = read_bytes(with_fault(raw, 2 /*SEGV_ACCERR*/, guard->vaddr + 0x800), "guard.core");
    REQUIRE(facts);
    CHECK(facts->fault_kind == "guard");
    CHECK(facts->fault_region.find("thread " + std::to_string(tid)) != std::string::npos);
    CHECK(facts->fault_region.find("stack overflow") != std::string::npos);
  }
  SUBCASE("just past the end of a mapping: an overrun") {
    const aoti::parsers::coredump::Segment* before_gap = nullptr;
    for (std::size_t i = 0; i + 1 < map.segments.size() && !before_gap; ++i)
      if ((map.segments[i].flags & 2 /*PF_W*/) &&
          map.segments[i + 1].vaddr - map.segments[i].end() > (2 << 20))
        before_gap = &map.segments[i];
    REQUIRE(before_gap != nullptr);
    auto facts =
        read_bytes(with_fault(raw, 1 /*SEGV_MAPERR*/, before_gap->end() + 0x10), "overrun.core");
    REQUIRE(facts);
    CHECK(facts->fault_kind == "unmapped");
    CHECK(facts->fault_region.find("0x10 bytes past the end of") != std::string::npos);
    CHECK(facts->fault_region.find("buffer overrun") != std::string::npos);
  }
  SUBCASE("a field of a null object") {
    auto facts = read_bytes(with_fault(raw, 1, 0x18), "offset.core");
    REQUIRE(facts);
    CHECK(facts->fault_kind == "null");
    CHECK(facts->fault_region.find("a null pointer plus an offset of 0x18") != std::string::npos);
  }
  SUBCASE("a small negative number used as a pointer") {
    auto facts = read_bytes(with_fault(raw, 1, ~std::uint64_t{15}), "negative.core");
    REQUIRE(facts);
    CHECK(facts->fault_kind == "kernel");
    CHECK(facts->fault_region.find("-16") != std::string::npos);
  }
}
