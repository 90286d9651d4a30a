#include <torch/extension.h>
at::Tensor pick_meta(const at::Tensor& x) {
  if (x.sym_size(0) > 1024) {
    return at::empty_symint({x.sym_size(0) / 2}, x.options());
  }
  return at::empty_like(x);
}
TORCH_LIBRARY(snip, m) { m.def("halve(Tensor x) -> Tensor"); }
TORCH_LIBRARY_IMPL(snip, Meta, m) { m.impl("halve", pick_meta); }
