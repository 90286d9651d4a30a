#include <torch/extension.h>
#include <vector>
at::Tensor cat_meta(const at::Tensor& a, const at::Tensor& b) {
  std::vector<int64_t> shape;
  return at::empty_symint({a.sym_size(0) + b.sym_size(0)}, a.options());
}
TORCH_LIBRARY(snip, m) { m.def("cat2(Tensor a, Tensor b) -> Tensor"); }
TORCH_LIBRARY_IMPL(snip, Meta, m) { m.impl("cat2", cat_meta); }
