
#include <torch/extension.h>
at::Tensor scale_rows_impl(const at::Tensor& x, double s) { return x * s; }
// Meta kernel written with concrete sizes: not SymInt-aware.
at::Tensor scale_rows_meta(const at::Tensor& x, double s) {
  int64_t rows = x.size(0);
  int64_t cols = x.size(1);
  return at::empty({rows, cols}, x.options());
}
at::Tensor gather_rows_cpu(const at::Tensor& table, const at::Tensor& idx) {
  auto out = at::empty({idx.size(0), table.size(1)}, table.options());
  const float* t = table.data_ptr<float>();
  const int64_t* ix = idx.data_ptr<int64_t>();
  float* o = out.data_ptr<float>();
  int64_t cols = table.size(1);
  for (int64_t i = 0; i < idx.size(0); ++i)
    for (int64_t j = 0; j < cols; ++j) o[i * cols + j] = t[ix[i] * cols + j];  // no bounds check
  return out;
}
at::Tensor gather_rows_meta(const at::Tensor& table, const at::Tensor& idx) {
  return at::empty_symint({idx.sym_size(0), table.sym_size(1)}, table.options());
}
TORCH_LIBRARY(seed_cpp, m) {
  m.def("scale_rows(Tensor x, float s) -> Tensor");
  m.def("gather_rows(Tensor table, Tensor idx) -> Tensor");
}
TORCH_LIBRARY_IMPL(seed_cpp, CPU, m) { m.impl("scale_rows", scale_rows_impl); m.impl("gather_rows", gather_rows_cpu); }
TORCH_LIBRARY_IMPL(seed_cpp, CUDA, m) { m.impl("scale_rows", scale_rows_impl); }
TORCH_LIBRARY_IMPL(seed_cpp, Meta, m) { m.impl("scale_rows", scale_rows_meta); m.impl("gather_rows", gather_rows_meta); }
