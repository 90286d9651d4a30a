#include <torch/extension.h>
// A catch-all kernel in m.def registers as CompositeImplicitAutograd: it is traced.
at::Tensor scale(const at::Tensor& x) {
  const float* p = x.data_ptr<float>();
  (void)p;
  return x;
}
TORCH_LIBRARY(snip, m) { m.def("scale(Tensor x) -> Tensor", &scale); }
