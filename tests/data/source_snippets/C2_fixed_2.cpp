#include <torch/extension.h>
// A static shape made of literals is static on purpose; empty_like follows the input.
at::Tensor stats_meta(const at::Tensor& x) {
  auto scratch = at::empty({2, 4}, x.options());
  (void)scratch;
  return at::empty_like(x);
}
TORCH_LIBRARY(snip, m) { m.def("stats(Tensor x) -> Tensor"); }
TORCH_LIBRARY_IMPL(snip, Meta, m) { m.impl("stats", stats_meta); }
