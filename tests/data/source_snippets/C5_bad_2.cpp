#include <torch/extension.h>
at::Tensor grow_meta(const at::Tensor& x, int64_t extra) {
  c10::SymDimVector shape{x.sym_size(0), c10::SymInt(extra)};
  return at::empty_symint(shape, x.options());
}
TORCH_LIBRARY(snip, m) { m.def("grow(Tensor x, int output_size) -> Tensor"); }
TORCH_LIBRARY_IMPL(snip, Meta, m) { m.impl("grow", grow_meta); }
