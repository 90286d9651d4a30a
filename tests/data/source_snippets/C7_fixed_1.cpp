#include <torch/extension.h>
at::Tensor clamp_meta(const at::Tensor& x) {
  auto rows = c10::sym_max(x.sym_size(0), c10::SymInt(8));
  if (x.dim() != 2) return at::empty_like(x);  // the rank is static: no guard
  return at::empty_symint({rows}, x.options());
}
TORCH_LIBRARY(snip, m) { m.def("clamp_rows(Tensor x) -> Tensor"); }
TORCH_LIBRARY_IMPL(snip, Meta, m) { m.impl("clamp_rows", clamp_meta); }
