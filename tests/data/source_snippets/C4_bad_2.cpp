#include <torch/extension.h>
at::Tensor tile_meta(const at::Tensor& x, c10::IntArrayRef reps) { return at::empty_like(x); }
TORCH_LIBRARY(snip, m) {
  m.def("tile2(Tensor x, SymInt[2] reps) -> Tensor", tile_meta);
}
