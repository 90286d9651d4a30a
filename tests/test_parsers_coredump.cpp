// The core reader on the corpus's real cores: signal, fault, threads, frames named like gdb
// names them, modules matched to packages by build-id, a zstd core and a multi-block xz core read
// like the xz one. Broken copies are in test_parsers_coredump_hostile.cpp, faults decoded against
// the memory map in test_parsers_coredump_fault.cpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "parsers/coredump/core_reader.hpp"
#include "parsers/coredump/decompress.hpp"
#include "tests/parsers_coredump_support.hpp"

using aoti::model::CoreFacts;
using aoti::model::CoreThread;
using aoti::parsers::coredump::read_core;
using namespace aoti::test::coredump;

namespace {

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
