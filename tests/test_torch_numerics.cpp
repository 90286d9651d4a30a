// The domains of the ops that turn finite inputs into NaN or Inf, by any spelling of the op.
#include <doctest/doctest.h>

#include "torch/numerics.hpp"

using aoti::torch::nan_inf_domain;

TEST_CASE("nan_inf_domain: ATen names with or without overload, in-place forms, unknown ops") {
  CHECK(nan_inf_domain("aten.log") == "NaN for inputs below 0 and -inf at 0");
  CHECK(nan_inf_domain("aten.log.default") == nan_inf_domain("log"));
  CHECK(nan_inf_domain("aten.sqrt_") == "NaN for inputs below 0");
  CHECK(nan_inf_domain("aten.exp").find("inf on overflow") == 0);
  CHECK(nan_inf_domain("aten.mul").empty());
  CHECK(nan_inf_domain("aten.logsumexp").empty());
  CHECK(nan_inf_domain("").empty());
}
