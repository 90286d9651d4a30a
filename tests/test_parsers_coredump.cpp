// The core reader on the corpus's real cores: signal, fault, threads, frames named like gdb
// names them, modules matched to packages by build-id; and on broken copies of them.
#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <random>

#include "parsers/coredump/core_image.hpp"
#include "parsers/coredump/core_reader.hpp"
#include "parsers/coredump/decompress.hpp"
#include "parsers/zip/zip_archive.hpp"
#include "support.hpp"
#include "util/hex.hpp"

namespace {

using aoti::model::CoreFacts;
using aoti::model::CoreThread;
using aoti::parsers::coredump::Compression;
using aoti::parsers::coredump::decompress_to_private_file;
using aoti::parsers::coredump::ModelObject;
using aoti::parsers::coredump::read_core;

const std::vector<std::string> k_core_cases = {
    "load-crash-static-libstdcxx", "cpu-package-cuda-input-segv", "embedding-device-assert"};

// The package's model .so, found and read with the zip parser and libelf alone (the pt2 parser
// is not linked into this test).
std::vector<ModelObject> models_of(const std::string& case_name) {
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
  std::string raw;  // the first k_prefix bytes of the decompressed core
};
constexpr std::size_t k_prefix = 24 << 20;

aoti::test::TempDir& scratch() {
  static aoti::test::TempDir dir;
  return dir;
}

const SeedCore& seed(const std::string& case_name) {
  static std::map<std::string, SeedCore> cache;
  if (auto found = cache.find(case_name); found != cache.end()) return found->second;
  const auto xz = aoti::test::corpus_case(case_name) / "core.xz";
  auto facts = read_core(xz, case_name + "/core.xz", models_of(case_name));
  REQUIRE_MESSAGE(facts, (facts ? "" : facts.error().message));
  // The raw prefix, for the truncation and patching tests, from the reader's own decompressor
  // stopped at k_prefix bytes.
  SeedCore core{std::move(*facts), std::string(k_prefix, '\0')};
  auto prefix = decompress_to_private_file(xz, Compression::xz, {.max_bytes = k_prefix});
  REQUIRE(prefix);
  REQUIRE(prefix->size == k_prefix);
  REQUIRE(::pread(prefix->file.get(), core.raw.data(), k_prefix, 0) ==
          static_cast<ssize_t>(k_prefix));
  return cache.emplace(case_name, std::move(core)).first->second;
}

const CoreThread& crashed(const CoreFacts& core) {
  REQUIRE(!core.threads.empty());
  REQUIRE(core.threads.front().crashed);
  return core.threads.front();
}

bool has_frame(const CoreThread& thread, std::string_view text, bool in_package = false) {
  return std::any_of(thread.frames.begin(), thread.frames.end(), [&](const auto& frame) {
    return frame.symbol.find(text) != std::string::npos && (!in_package || !frame.package.empty());
  });
}

// Code folding gives one address many names (11 `do_unshift` instantiations share one in the
// load-crash .so); gdb and libdwfl may pick different ones. The function's own name (last
// component before the parameters) must still agree.
std::string function_name(const std::string& symbol) {
  std::string name = symbol.substr(0, symbol.find('('));
  if (auto colons = name.rfind("::"); colons != std::string::npos) name = name.substr(colons + 2);
  return name;
}

std::vector<std::string> gdb_frames(const std::string& case_name) {
  std::istringstream in(aoti::test::read_file(aoti::test::source_dir() / "tests/data/gdb_frames" /
                                              (case_name + ".txt")));
  std::vector<std::string> names;
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') names.push_back(line);
  return names;
}

aoti::parsers::Parsed<CoreFacts> read_bytes(const std::string& bytes, const std::string& name,
                                            const std::vector<ModelObject>& models = {}) {
  const auto path = scratch().path / name;
  aoti::test::write_file(path, bytes);
  auto facts = read_core(path, name, models);
  std::filesystem::remove(path);
  return facts;
}

bool mentions(const CoreFacts& core, std::string_view text) {
  return std::any_of(core.health.begin(), core.health.end(),
                     [&](const std::string& note) { return note.find(text) != std::string::npos; });
}

}  // namespace

TEST_CASE("core: every seed core yields signal, crashing thread, modules, argv and environment") {
  const std::map<std::string, std::string> signals = {{"load-crash-static-libstdcxx", "SIGSEGV"},
                                                      {"cpu-package-cuda-input-segv", "SIGSEGV"},
                                                      {"embedding-device-assert", "SIGABRT"}};
  for (const std::string& case_name : k_core_cases) {
    CAPTURE(case_name);
    const CoreFacts& core = seed(case_name).facts;
    CHECK(core.compression == "xz");
    CHECK(mentions(core, "decompressed xz core to a private temporary file"));
    CHECK(core.signal_name == signals.at(case_name));
    CHECK(core.fault_address.has_value() == (core.signal_name == "SIGSEGV"));
    CHECK(core.kernel_written);
    CHECK(core.has_file_note);
    CHECK_FALSE(core.truncated);
    CHECK(core.threads.size() > 1);
    CHECK(crashed(core).tid == core.pid);
    CHECK(core.executable.find("python3") != std::string::npos);
    REQUIRE(core.argv.size() >= 2);
    CHECK(core.argv[0].find("python3") != std::string::npos);
    CHECK(core.environment.count("PATH") == 1);
    CHECK(core.environment.count("TORCH_TRACE") == 1);
    CHECK(core.environment.count("LD_LIBRARY_PATH") == 1);
    CHECK(core.environment.count("AOTI_RUNTIME_CHECK_INPUTS") ==
          0);  // the cases ran with input checks off
    const auto has_module = [&](std::string_view suffix, bool model) {
      return std::any_of(core.modules.begin(), core.modules.end(), [&](const auto& module) {
        return module.path.ends_with(suffix) &&
               (!model || module.package == aoti::test::corpus_package(case_name).string());
      });
    };
    CHECK(has_module("libstdc++.so.6.0.33", false));
    CHECK(has_module(".wrapper.so", true));
    // Every crashing frame in the model .so names its package.
    for (const auto& frame : crashed(core).frames)
      if (frame.module.ends_with(".wrapper.so")) CHECK(!frame.package.empty());
  }
}

TEST_CASE("core: read_core names at least the frames gdb names for the crashing thread") {
  for (const std::string& case_name : k_core_cases) {
    CAPTURE(case_name);
    const CoreThread& thread = crashed(seed(case_name).facts);
    std::size_t at = 0;  // in order: each gdb frame after the previous one
    for (const std::string& name : gdb_frames(case_name)) {
      CAPTURE(name);
      while (at < thread.frames.size() && thread.frames[at].symbol != name &&
             function_name(thread.frames[at].symbol) != function_name(name))
        ++at;
      REQUIRE(at < thread.frames.size());
      ++at;
    }
  }
}

TEST_CASE("core: the load crash is in parse_device_str's std::regex, inside the model .so") {
  const CoreFacts& core = seed("load-crash-static-libstdcxx").facts;
  const CoreThread& thread = crashed(core);
  CHECK(core.signal_code_name == "SEGV_MAPERR");
  CHECK(core.fault_region.find("null pointer") != std::string::npos);
  CHECK(has_frame(thread, "torch::aot_inductor::parse_device_str", true));
  CHECK(has_frame(thread, "std::__detail::_Compiler<std::__cxx11::regex_traits<char> >", true));
  CHECK(has_frame(thread, "torch::aot_inductor::AOTInductorModel::AOTInductorModel", true));
  CHECK(has_frame(thread, "AOTInductorModelContainerCreateWithDevice", true));
  CHECK(thread.frames.front().method == "initial");
  CHECK(thread.frames[1].method == "cfi");
}

TEST_CASE("core: the CPU kernel read a device pointer") {
  const CoreFacts& core = seed("cpu-package-cuda-input-segv").facts;
  const CoreThread& thread = crashed(core);
  CHECK(core.signal_code_name == "SEGV_ACCERR");
  CHECK(core.fault_region.find("device-pointer-looking") != std::string::npos);
  CHECK(thread.frames.front().symbol.starts_with("cpp_fused_"));
  CHECK(has_frame(thread, "run_impl", true));
  // Past the model .so (libtorch is not on this machine) the frames come from a marked scan.
  CHECK(std::any_of(thread.frames.begin(), thread.frames.end(),
                    [](const auto& frame) { return frame.method == "stack scan"; }));
}

TEST_CASE("core: the abort went through the model .so") {
  const CoreFacts& core = seed("embedding-device-assert").facts;
  CHECK(core.signal_code_name == "SI_TKILL");
  CHECK(core.sender_pid == core.pid);
  CHECK(has_frame(crashed(core), "AOTInductorModelContainer", true));
}

TEST_CASE("core: sniffing") {
  const SeedCore& core = seed("cpu-package-cuda-input-segv");
  CHECK(aoti::parsers::coredump::looks_like_core(std::string_view(core.raw).substr(0, 64)));
  const std::string xz =
      aoti::test::read_file(aoti::test::corpus_case("cpu-package-cuda-input-segv") / "core.xz");
  CHECK(aoti::parsers::coredump::looks_like_core(std::string_view(xz).substr(0, 4096)));
  CHECK_FALSE(
      aoti::parsers::coredump::looks_like_core("\x7f"
                                               "ELF\2\1\1\0\0\0\0\0\0\0\0\0\3\0"));  // ET_DYN
  CHECK_FALSE(aoti::parsers::coredump::looks_like_core("plain text"));
}

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

TEST_CASE("core: a core paired with another case's package says so") {
  const auto path = scratch().path / "crash.core";
  aoti::test::write_file(path, seed("load-crash-static-libstdcxx").raw);
  auto facts = read_core(path, "crash.core", models_of("embedding-device-assert"));
  REQUIRE(facts);
  CHECK(mentions(*facts, "did not load that package"));
  CHECK(std::none_of(facts->modules.begin(), facts->modules.end(),
                     [](const auto& m) { return !m.package.empty(); }));
}

TEST_CASE("core: a zstd-compressed core, as systemd-coredump stores them, reads like the xz one") {
  // Recompress a seed core with the zstd tool; the reader must see the same crash.
  aoti::test::TempDir tmp;
  const auto zst = tmp.path / "core.zst";
  const std::string command =
      "xz -dc " +
      aoti::test::shell_quote(
          (aoti::test::corpus_case("embedding-device-assert") / "core.xz").string()) +
      " | zstd -q -1 -o " + aoti::test::shell_quote(zst.string());
  REQUIRE(std::system(command.c_str()) == 0);
  // A zstd block decodes only whole: the sniff needs up to one block (128 KiB) of the file.
  CHECK(aoti::parsers::coredump::looks_like_core(aoti::test::read_file(zst).substr(0, 256 << 10)));
  auto facts = read_core(zst, "core.zst", models_of("embedding-device-assert"));
  REQUIRE(facts);
  CHECK(facts->compression == "zstd");
  CHECK(facts->signal_name == "SIGABRT");
  CHECK(has_frame(crashed(*facts), "AOTInductorModelContainer", true));
  CHECK(std::any_of(facts->health.begin(), facts->health.end(), [](const std::string& note) {
    return note.find("private temporary file") != std::string::npos;
  }));
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

namespace {

// What read_core found, as text: every thread's frames, the module map, process and fault.
std::string digest(const CoreFacts& core) {
  std::string out = core.executable + "|" + core.signal_name + "|" + core.fault_kind + "|" +
                    core.fault_region + "\n";
  for (const std::string& arg : core.argv) out += arg + " ";
  out += "\n" + std::to_string(core.environment.size()) + " variables\n";
  for (const auto& thread : core.threads) {
    out += std::to_string(thread.tid) + " " + thread.unwind_error + "\n";
    for (const auto& frame : thread.frames)
      out += "  " + std::to_string(frame.pc) + " " + frame.module + " " + frame.symbol + " " +
             frame.method + "\n";
  }
  for (const auto& module : core.modules)
    out += std::to_string(module.start) + " " + module.path + " " + module.build_id + "\n";
  for (const std::string& note : core.health) out += note + "\n";
  return out;
}

}  // namespace

TEST_CASE(
    "core: a multi-block xz seed core decoded block by block reads as decoded on one thread") {
  for (const std::string& case_name : k_core_cases) {
    CAPTURE(case_name);
    const auto xz = aoti::test::corpus_case(case_name) / "core.xz";
    auto one = read_core(xz, "core.xz", models_of(case_name), {.decoding = {.threads = 1}});
    auto blocks = read_core(xz, "core.xz", models_of(case_name), {.decoding = {.threads = 2}});
    REQUIRE(one);
    REQUIRE(blocks);
    // The one-thread read says why it was not split; the rest is the same, frame by frame.
    REQUIRE(mentions(*one, "one decoder thread was asked for"));
    one->health.erase(std::remove_if(one->health.begin(), one->health.end(),
                                     [](const std::string& note) {
                                       return note.find("one decoder thread") != std::string::npos;
                                     }),
                      one->health.end());
    CHECK(digest(*blocks) == digest(*one));
  }
}
