#include <torch/extension.h>
// The size is read in a helper the meta kernel calls.
static c10::SymInt rows_of(const at::Tensor& x) { return c10::SymInt(x.sizes()[0]); }
at::Tensor head_meta(const at::Tensor& x) {
  return at::empty_symint({rows_of(x), x.sym_size(1)}, x.options());
}
TORCH_LIBRARY(snip, m) { m.def("head(Tensor x) -> Tensor"); }
TORCH_LIBRARY_IMPL(snip, Meta, m) { m.impl("head", TORCH_FN(head_meta)); }
