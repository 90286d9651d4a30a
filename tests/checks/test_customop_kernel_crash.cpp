// customop.kernel-crash: unit tests on hand-built Cases and the corpus cases it is about.
#include <doctest/doctest.h>

#include "checks/customop/kernel_crash.hpp"
#include "tests/checks/check_test.hpp"

using namespace aoti::test;

TEST_CASE("customop.kernel-crash and device.load-mismatch from a core") {
  Case c = cuda_case();
  c.models[0].package = "m.pt2";
  c.models[0].extern_nodes.push_back({0, "buf0", "heldout_cpp::gather_rows", {}, {"buf1"}});
  c.cores.push_back(
      crash_in("/opt/ops/libheldout_ops.so", "", {"/usr/lib/x86_64-linux-gnu/libcuda.so.1"}));
  auto found = run_check<CustomopKernelCrashCheck>(c);
  REQUIRE(found.size() == 1);
  CHECK(mentions(found[0], "libheldout_ops.so"));
  CHECK(mentions(found[0], "heldout_cpp::gather_rows"));

  // The same crash in libtorch is not a custom op's.
  c.cores[0] = crash_in("/site-packages/torch/lib/libtorch_cpu.so", "", {});
  CHECK(run_check<CustomopKernelCrashCheck>(c).empty());

  // A CUDA package's frame crashing in a process without libcuda: a CPU runner loaded it.
  c.cores[0] = crash_in("/tmp/x/model.so", "m.pt2", {"/usr/lib/x86_64-linux-gnu/libc.so.6"});
  found = run_check("device.load-mismatch", c);
  REQUIRE(found.size() == 1);
  CHECK(mentions(found[0], "AOTI_DEVICE_KEY = cuda"));
}

namespace {

const Evidence* quote_in(const Finding& f, const std::string& file_name, int line) {
  for (const auto& e : f.evidence)
    if (e.kind == EvidenceKind::quote && e.where.line == line &&
        std::filesystem::path(e.where.artifact).filename() == file_name)
      return &e;
  return nullptr;
}

}  // namespace

TEST_CASE("customop.kernel-crash: a GPU fault in a custom op's own CUDA kernel, read end to end") {
  const Case& real = corpus("custom-cuda-op-gpu-core");
  auto found = run_check<CustomopKernelCrashCheck>(real);
  REQUIRE(found.size() == 1);
  const Finding& f = found[0];
  CHECK(f.explains_failure);
  // The kernel demangled, the op it implements, the package's call of that op.
  CHECK(mentions(f, "scatter_rows_kernel(float const*, long const*, float*, long, long)"));
  CHECK(mentions(f, "_Z19scatter_rows_kernelPKfPKlPfll"));
  CHECK(f.title.find("rowops::scatter_rows") != std::string::npos);
  CHECK(mentions(f, "scatter_rows_cuda"));
  CHECK(mentions(f, "aoti_torch_proxy_executor_call_function"));
  // The faulting line quoted from the given rowops.cu at its own line, and the launch.
  const Evidence* line = quote_in(f, "rowops.cu", 11);
  REQUIRE(line);
  CHECK(line->excerpt == "out[dst * cols + c] = x[i];");
  CHECK(quote_in(f, "rowops.cu", 19));
  CHECK(f.confidence >= 0.9);

  SUBCASE("the given file numbered otherwise: the line is found by the kernel's position") {
    Case shifted = real;
    // As if the given file had three more lines above the kernel than the one that was built.
    for (auto& k : shifted.sources[0].cuda_kernels) {
      for (int* l : {&k.line, &k.line_begin, &k.line_end, &k.body_line}) *l += 3;
      for (auto& launch : k.launches) launch.line += 3;
    }
    const auto moved = run_check<CustomopKernelCrashCheck>(shifted);
    REQUIRE(moved.size() == 1);
    const Evidence* at = quote_in(moved[0], "rowops.cu", 14);
    REQUIRE(at);
    CHECK(at->excerpt == "out[dst * cols + c] = x[i];");
    CHECK(mentions(moved[0], "inferred"));
    CHECK(moved[0].confidence < f.confidence);
  }

  SUBCASE("a given kernel too short for the line: nothing is quoted for it") {
    Case other = real;
    auto& k = other.sources[0].cuda_kernels[0];
    k.line_end = k.body_line + 2;
    k.text.resize(static_cast<std::size_t>(k.line_end - k.line_begin + 1));
    const auto found_other = run_check<CustomopKernelCrashCheck>(other);
    REQUIRE(found_other.size() == 1);
    CHECK_FALSE(quote_in(found_other[0], "rowops.cu", 11));
    CHECK(mentions(found_other[0], "no line is quoted"));
  }

  SUBCASE("without the op's source: an inference naming the ops the package calls") {
    Case bare = real;
    bare.sources.clear();
    const auto inferred = run_check<CustomopKernelCrashCheck>(bare);
    REQUIRE(inferred.size() == 1);
    CHECK(mentions(inferred[0], "Inferred"));
    CHECK(mentions(inferred[0], "rowops::scatter_rows"));
    CHECK(mentions(inferred[0], "none of the package's 2 cubin(s)"));
    CHECK(inferred[0].confidence < 0.9);
  }

  SUBCASE("a fault in the package's own Triton kernel is not a custom op's") {
    CHECK(run_check<CustomopKernelCrashCheck>(corpus("embedding-ima-gpu-core")).empty());
  }
}

TEST_CASE("customop.kernel-crash from a log: gdb's backtrace inside an extension library") {
  const auto found = analyze_wild("spconv-245-gcc9-build-segfault");
  REQUIRE(!found.empty());
  CHECK(found[0].check == "customop.kernel-crash");
  CHECK(found[0].title.find("libspconv.so") != std::string::npos);
  CHECK(mentions(found[0], "spconv::create_conv_indice_pair_p2_cuda"));
  CHECK(mentions(found[0], "the signal line is not in the log"));
  // The same backtrace inside libc and libtorch is not an extension's.
  const auto torch_crash = analyze_log(
      "Segmentation fault (core dumped)\n"
      "#0  0x00007f632fdbd5a0 in memcpy () from /lib/x86_64-linux-gnu/libc.so.6\n"
      "#1  0x00007f632fdbd5a0 in at::native::f() () from /x/torch/lib/libtorch_cuda.so\n");
  CHECK(!first_of(torch_crash, "customop.kernel-crash"));
}
