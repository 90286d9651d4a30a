// shape.lower-bound-missing: unit tests on hand-built Cases and the corpus cases it is about.
#include <doctest/doctest.h>

#include "checks/shape/lower_bound_missing.hpp"
#include "tests/checks/check_test.hpp"

using namespace aoti::test;

namespace {

// A CUDA case whose kernel asserts `tmp3 < ks0` with ks0 bound to dim 0 of `arg0_1`.
Case index_case() {
  Case c = cuda_case();
  auto& w = *c.models[0].wrapper;
  TritonKernel k;
  k.name = "triton_poi_fused_index_0";
  k.params = {"in_ptr0", "ks0"};
  k.asserts.push_back(
      {"index out of bounds: 0 <= tmp3 < ks0", "(0 <= tmp3) & (tmp3 < ks0)", "tmp3", "ks0", 105});
  w.kernels.push_back(k);
  w.kernel_calls.push_back({"triton_poi_fused_index_0", {"arg0_1", "s0"}, {}, {}, 200});
  return c;
}

}  // namespace

TEST_CASE("shape.lower-bound-missing") {
  Case c = index_case();
  auto& w = *c.models[0].wrapper;
  w.input_checks.erase(w.input_checks.begin());  // no lower bound on dim 0
  auto found = run_check<ShapeLowerBoundMissingCheck>(c);
  REQUIRE(found.size() == 1);
  CHECK(mentions(found[0], "declares no lower bound"));
  w.input_checks.push_back({0, "arg0_1", InputCheckKind::dim_min, 0, 2, "", 20});
  found =
      run_check<ShapeLowerBoundMissingCheck>(c);  // min 2, but checked only with the variable set
  REQUIRE(found.size() == 1);
  CHECK(mentions(found[0], "only when AOTI_RUNTIME_CHECK_INPUTS=1"));
  w.checks_gated_by_env = false;
  CHECK(run_check<ShapeLowerBoundMissingCheck>(c).empty());  // min 2, always checked: never empty
}
