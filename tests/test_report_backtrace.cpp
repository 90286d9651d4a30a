// `--backtrace`'s text, on hand-made core facts: what gdb and eu-stack users expect to read.
#include <doctest/doctest.h>

#include "analyzer/report/backtrace.hpp"
#include "support.hpp"

namespace {
using aoti::model::CoreFacts;
using aoti::model::CoreThread;
using aoti::model::StackFrame;

CoreFacts segv_core() {
  CoreFacts core;
  core.artifact = "run/core";
  core.pid = 446;
  core.executable = "/usr/bin/python3";
  core.command_line = "python3 run.py";
  core.signal_name = "SIGSEGV";
  core.signal_code_name = "SEGV_ACCERR";
  core.fault_address = 0x7f0000001000;
  CoreThread crashed{446, true, {}, ""};
  crashed.frames.push_back(
      {0x7f12345678, "/tmp/x.wrapper.so", 0x1234, "cpp_fused_add_0", 0x12, "initial", "model.pt2"});
  crashed.frames.push_back({0x7f00000001, "/usr/lib/libc.so.6", 0x10, "", 0, "cfi", ""});
  crashed.frames.push_back(
      {0x7f00000002, "/usr/lib/libtorch.so", 0x20, "at::foo", 0x4, "stack scan", ""});
  crashed.unwind_error = "no CFI";
  core.threads.push_back(crashed);
  core.threads.push_back({447, false, {{0x1, "", 0, "", 0, "initial", ""}}, ""});
  return core;
}

}  // namespace

TEST_CASE("backtrace: the process, the signal with its fault address, then every thread") {
  const std::string text = aoti::report::render_backtrace(segv_core());
  CHECK(text.starts_with("Core run/core: pid 446, /usr/bin/python3\nCommand: python3 run.py\n"));
  CHECK(text.find("Signal: SIGSEGV (SEGV_ACCERR) at fault address 0x7f0000001000\n") !=
        std::string::npos);
  CHECK(text.find("\nThread 446 (crashed):\n") < text.find("\nThread 447:\n"));
}

TEST_CASE("backtrace: frames numbered as gdb does, symbols with offsets, the model marked") {
  const std::string text = aoti::report::render_backtrace(segv_core());
  CHECK(text.find("#0  0x0000007f12345678 in cpp_fused_add_0+0x12 (/tmp/x.wrapper.so +0x1234) "
                  "[model model.pt2]\n") != std::string::npos);
  CHECK(text.find("#1  0x0000007f00000001 in ?? (/usr/lib/libc.so.6 +0x10)\n") !=
        std::string::npos);
  CHECK(text.find("#0  0x0000000000000001 in ??\n") != std::string::npos);  // a frame in no module
}

TEST_CASE("backtrace: where unwinding stopped, stack-scan candidates apart and marked") {
  const std::string text = aoti::report::render_backtrace(segv_core());
  const auto stopped = text.find("    unwinding stopped: no CFI\n");
  const auto label =
      text.find(std::string("    -- ") + std::string(aoti::model::k_stack_scan_label) + " --\n");
  const auto candidate = text.find(
      "#2  0x0000007f00000002 in at::foo+0x4 (/usr/lib/libtorch.so +0x20) [stack scan]\n");
  REQUIRE(stopped != std::string::npos);
  REQUIRE(label != std::string::npos);
  REQUIRE(candidate != std::string::npos);
  CHECK(stopped < label);
  CHECK(label < candidate);
}

TEST_CASE("backtrace: SI_KERNEL has no fault address to print; an unsigned core says so") {
  CoreFacts core = segv_core();
  core.signal_code_name = "SI_KERNEL";
  core.fault_address.reset();
  std::string text = aoti::report::render_backtrace(core);
  CHECK(text.find("Signal: SIGSEGV (SI_KERNEL)\n") != std::string::npos);
  CHECK(text.find("at fault address") == std::string::npos);
  core.signal_name.clear();
  core.signal_code_name.clear();
  text = aoti::report::render_backtrace(core);
  CHECK(text.find("Signal: none\n") != std::string::npos);
}

TEST_CASE("backtrace: a GPU core dump's grid and faulting warp, next to the CPU threads") {
  const auto dir = aoti::test::corpus_case("embedding-ima-gpu-core");
  const auto run =
      aoti::test::run_cli("--backtrace " + aoti::test::shell_quote((dir / "core.xz").string()) +
                          " " + aoti::test::shell_quote((dir / "model.pt2").string()) + " " +
                          aoti::test::shell_quote((dir / "gpu.nvcudmp.xz").string()));
  REQUIRE(run.exit_code == 0);
  const auto cpu = run.out.find("(crashed):");
  const auto warp = run.out.find(
      "Warp 2 on SM 126, device 0, grid 2442, block (0,1,0): Warp Illegal Address, 32 faulting "
      "lane(s), first thread (96,0,0)");
  REQUIRE(cpu != std::string::npos);
  REQUIRE(warp != std::string::npos);
  CHECK(cpu < warp);
  CHECK(run.out.find("in triton_poi_fused_embedding_0+0x560 (") != std::string::npos);
  CHECK(run.out.find(".py:33)") != std::string::npos);
  CHECK(run.out.find("Device 0: NVIDIA H200") != std::string::npos);
}
