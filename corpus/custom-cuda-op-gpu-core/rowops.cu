// rowops: scatter_rows(x, idx, n) puts row r of x at row idx[r] of an n-row output.
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void scatter_rows_kernel(const float* x, const int64_t* idx, float* out,
                                    int64_t rows, int64_t cols) {
  const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i >= rows * cols) return;
  const int64_t r = i / cols, c = i % cols;
  const int64_t dst = idx[r];          // no check against the output's rows
  out[dst * cols + c] = x[i];
}

at::Tensor scatter_rows_cuda(const at::Tensor& x, const at::Tensor& idx, int64_t n) {
  auto out = at::zeros({n, x.size(1)}, x.options());
  const int64_t total = x.size(0) * x.size(1);
  const int threads = 256;
  const int blocks = (int)((total + threads - 1) / threads);
  scatter_rows_kernel<<<blocks, threads>>>(x.data_ptr<float>(), idx.data_ptr<int64_t>(),
                                           out.data_ptr<float>(), x.size(0), x.size(1));
  return out;
}

at::Tensor scatter_rows_meta(const at::Tensor& x, const at::Tensor& idx, int64_t n) {
  return at::empty_symint({c10::SymInt(n), x.sym_size(1)}, x.options());
}

TORCH_LIBRARY(rowops, m) { m.def("scatter_rows(Tensor x, Tensor idx, int n) -> Tensor"); }
TORCH_LIBRARY_IMPL(rowops, CUDA, m) { m.impl("scatter_rows", scatter_rows_cuda); }
TORCH_LIBRARY_IMPL(rowops, Meta, m) { m.impl("scatter_rows", scatter_rows_meta); }
