// shape.unguarded-range: unit tests on hand-built Cases and the corpus cases it is about.
#include <doctest/doctest.h>

#include "checks/shape/unguarded_range.hpp"
#include "tests/checks/check_test.hpp"

using namespace aoti::test;

TEST_CASE(
    "shape.unguarded-range: from the package alone, a dim range wider than the table a kernel "
    "indexes with it") {
  // The real pos-embedding package: y0 = (yindex % ks0), ks0 = seq in [2, 2048], assert y0 < 512,
  // pos_emb.weight {512, 32}. Without the log, this is the latent finding.
  const Case c = load_case(
      {(aoti::test::corpus_case("pos-embedding-unguarded-range") / "model.pt2").string()});
  const auto found = run_check<ShapeUnguardedRangeCheck>(c);
  REQUIRE(found.size() == 1);
  CHECK(found[0].severity == Severity::warning);
  CHECK(found[0].title.find("the 512 rows of `pos_emb.weight`") != std::string::npos);
  CHECK(mentions(found[0], "[2, 2048]"));
  CHECK(mentions(found[0], "`y0` = `(yindex % ks0)`"));
  CHECK(mentions(found[0], "max=512"));
  check_no_holes(found[0]);
  // Every other corpus package keeps its indices within its ranges.
  for (const char* name : {"embedding-device-assert", "index-select-empty", "healthy-cuda-dynamic",
                           "input-check-errors"})
    CHECK(run_check<ShapeUnguardedRangeCheck>(corpus(name)).empty());
  // With the log showing the assert, the index finding explains it with the same range: one cause,
  // one finding.
  const Case with_log = corpus("pos-embedding-unguarded-range");
  CHECK(run_check<ShapeUnguardedRangeCheck>(with_log).empty());
  const auto index = run_check("triton.index-out-of-bounds", with_log);
  REQUIRE(index.size() == 1);
  CHECK(mentions(index[0], "the rows of `pos_emb.weight`"));
}
