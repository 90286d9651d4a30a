// runtime.openmp-conflict: the OpenMP runtime's own error, as users posted it (corpus/wild).
#include <doctest/doctest.h>

#include "checks/runtime/openmp_conflict.hpp"
#include "tests/checks/check_test.hpp"

using namespace aoti::test;

TEST_CASE("runtime.openmp-conflict") {
  SUBCASE("two copies of one runtime, named as the error names them") {
    const auto found = analyze_wild("torchchat-733-aoti-so-duplicate-libomp");
    REQUIRE(!found.empty());
    const Finding& f = found[0];
    CHECK(f.check == "runtime.openmp-conflict");
    CHECK(f.severity == Severity::error);
    CHECK(f.title.find("`libomp.dylib`") != std::string::npos);
    CHECK(mentions(f, "OMP: Error #15: Initializing libomp.dylib"));
    // The copies are looked for by the library's own name.
    CHECK(mentions(f, "'/**/libomp.dylib'"));
    check_no_holes(f);
    check_quotes(
        found, read_file(corpus_dir() / "wild/torchchat-733-aoti-so-duplicate-libomp/stderr.txt"));
  }
  SUBCASE("the error in the middle of a test runner's line") {
    const auto found = analyze_wild("csprng-115-two-libiomp5md-dll");
    REQUIRE(!found.empty());
    CHECK(found[0].check == "runtime.openmp-conflict");
    CHECK(found[0].title.find("`libiomp5md.dll`") != std::string::npos);
    // No script is known and a DLL names no Linux or macOS loader: no command that would not run.
    CHECK_FALSE(mentions(found[0], "LD_DEBUG"));
    CHECK_FALSE(mentions(found[0], "DYLD_PRINT_LIBRARIES"));
  }
  SUBCASE("a sanitizer's crash inside the runtime, no library list: said as inferred") {
    const auto found = analyze_wild("pytorch-136217-libtorch-two-openmp-runtimes-opencv");
    REQUIRE(!found.empty());
    const Finding& f = found[0];
    CHECK(f.check == "runtime.openmp-conflict");
    CHECK(f.title.find("`libomp.dylib`") != std::string::npos);
    CHECK(f.message.find("Inferred, not shown by the log") != std::string::npos);
    CHECK(f.confidence < 0.7);
    check_no_holes(f);
  }
  SUBCASE("MKL's threading layer refused beside GNU OpenMP") {
    const auto found = analyze_wild("pytorch-37377-mkl-intel-layer-vs-libgomp");
    REQUIRE(!found.empty());
    CHECK(found[0].check == "runtime.openmp-conflict");
    CHECK(found[0].title.find("`MKL_THREADING_LAYER=INTEL`") != std::string::npos);
    CHECK(found[0].title.find("`libgomp.so.1`") != std::string::npos);
    check_no_holes(found[0]);
  }
  SUBCASE("other OpenMP lines are not this error") {
    Case c;
    CHECK(run_check<RuntimeOpenmpConflictCheck>(c).empty());
    const auto found = analyze_log("OMP: Info #276: omp_set_nested routine deprecated\n");
    CHECK(first_of(found, "runtime.openmp-conflict") == nullptr);
  }
}

TEST_CASE("runtime.openmp-conflict: a crash inside libomp with three copies loaded (lldb)") {
  const auto found = analyze_paths(
      {(corpus_dir() / "wild-heldout-4" / "pytorch-121101-two-openmp-runtimes-macos" / "stderr.txt")
           .string()});
  REQUIRE(!found.empty());
  CHECK(found[0].check == "runtime.openmp-conflict");
  CHECK(mentions(found[0], "sklearn/.dylibs/libomp.dylib"));
  CHECK(mentions(found[0], "torch/lib/libomp.dylib"));
  CHECK(mentions(found[0], "__kmp_suspend_64"));
  // One copy loaded: a crash inside the runtime is not a conflict.
  const auto one = analyze_log(
      "* thread #3, stop reason = EXC_BAD_ACCESS (code=1, address=0x8)\n"
      "    frame #0: 0x0000000106438cf0 libomp.dylib`__kmp_suspend_64 + 48\n"
      "[  0] F53B1E01-AF16-30FC-8690-F7B131EB6CE5 0x0000000106754000 /x/torch/lib/libomp.dylib\n");
  CHECK(!first_of(one, "runtime.openmp-conflict"));
  CHECK(!one.empty());
}

TEST_CASE("runtime.openmp-conflict: the runtime's message with its `OMP: ` cut off by a paste") {
  // ChatTTS-ui#22 as posted: the first two characters lost.
  const auto found = analyze_log(
      "P: Error #15: Initializing libomp.dylib, but found libiomp5.dylib already initialized.\n");
  REQUIRE(!found.empty());
  CHECK(found[0].check == "runtime.openmp-conflict");
  CHECK(found[0].title.find("`libomp.dylib`") != std::string::npos);
}
