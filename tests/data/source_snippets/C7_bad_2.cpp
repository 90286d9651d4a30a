#include <torch/extension.h>
at::Tensor clamp_meta(const at::Tensor& x) {
  auto rows = x.sym_size(0) < 8 ? c10::SymInt(8) : x.sym_size(0);
  return at::empty_symint({rows}, x.options());
}
TORCH_LIBRARY(snip, m) { m.def("clamp_rows(Tensor x) -> Tensor"); }
TORCH_LIBRARY_IMPL(snip, Meta, m) { m.impl("clamp_rows", clamp_meta); }
