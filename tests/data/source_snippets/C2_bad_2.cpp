#include <torch/extension.h>
#include <vector>
at::Tensor cat_meta(const at::Tensor& a, const at::Tensor& b) {
  std::vector<int64_t> shape;
  shape.push_back(a.size(0) + b.size(0));
  return at::empty(shape, a.options());
}
TORCH_LIBRARY(snip, m) { m.def("cat2(Tensor a, Tensor b) -> Tensor"); }
TORCH_LIBRARY_IMPL(snip, Meta, m) { m.impl("cat2", cat_meta); }
