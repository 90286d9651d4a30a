#include <torch/extension.h>
at::Tensor rowsum_meta(const at::Tensor& x) {
  auto out = at::empty_symint({x.sym_size(0)}, x.options());
  int64_t n = x.numel();
  (void)n;
  return out;
}
TORCH_LIBRARY(snip, m) { m.def("rowsum(Tensor x) -> Tensor"); }
TORCH_LIBRARY_IMPL(snip, Meta, m) { m.impl("rowsum", rowsum_meta); }
