#include <torch/extension.h>
at::Tensor scale_cpu(const at::Tensor& x) {
  const float* p = x.data_ptr<float>();
  (void)p;
  return x;
}
at::Tensor scale_meta(const at::Tensor& x) { return at::empty_like(x); }
TORCH_LIBRARY(snip, m) { m.def("scale(Tensor x) -> Tensor"); }
TORCH_LIBRARY_IMPL(snip, CPU, m) { m.impl("scale", scale_cpu); }
TORCH_LIBRARY_IMPL(snip, Meta, m) { m.impl("scale", scale_meta); }
