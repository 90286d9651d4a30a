#include <torch/extension.h>
at::Tensor add_meta(const at::Tensor& a, const at::Tensor& b) {
  TORCH_CHECK(a.sizes() == b.sizes());
  return at::empty_like(a);
}
TORCH_LIBRARY(snip, m) { m.def("add2(Tensor a, Tensor b) -> Tensor"); }
TORCH_LIBRARY_IMPL(snip, Meta, m) { m.impl("add2", add_meta); }
