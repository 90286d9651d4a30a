#include <torch/extension.h>
at::Tensor add_meta(const at::Tensor& a, const at::Tensor& b) {
  TORCH_SYM_CHECK(c10::sym_eq(a.sym_size(0), b.sym_size(0)), "batch mismatch");
  TORCH_CHECK(a.dim() == 2, "expected a matrix");
  return at::empty_like(a);
}
TORCH_LIBRARY(snip, m) { m.def("add2(Tensor a, Tensor b) -> Tensor"); }
TORCH_LIBRARY_IMPL(snip, Meta, m) { m.impl("add2", add_meta); }
