#include <torch/extension.h>
#include <vector>
at::Tensor rowsum_meta(const at::Tensor& x) {
  std::vector<int> unrelated{1, 2, 3};
  (void)unrelated.size();  // a std::vector's size is not a tensor size
  c10::SymInt n = x.sym_numel();
  (void)n;
  return at::empty_symint({x.sym_size(0)}, x.options());
}
TORCH_LIBRARY(snip, m) { m.def("rowsum(Tensor x) -> Tensor"); }
TORCH_LIBRARY_IMPL(snip, Meta, m) { m.impl("rowsum", rowsum_meta); }
