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
  SUBCASE("other OpenMP lines are not this error") {
    Case c;
    CHECK(run_check<RuntimeOpenmpConflictCheck>(c).empty());
    const auto found = analyze_log("OMP: Info #276: omp_set_nested routine deprecated\n");
    CHECK(first_of(found, "runtime.openmp-conflict") == nullptr);
  }
}
