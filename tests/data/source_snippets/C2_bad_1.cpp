#include <torch/extension.h>
at::Tensor pad_meta(const at::Tensor& x, int64_t extra) {
  return at::empty({extra, 4}, x.options());
}
TORCH_LIBRARY(snip, m) { m.def("pad(Tensor x, int extra) -> Tensor"); }
TORCH_LIBRARY_IMPL(snip, Meta, m) { m.impl("pad", torch::dispatch(c10::DispatchKey::Meta, pad_meta)); }
