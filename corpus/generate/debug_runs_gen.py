"""Issue 30's cases: the debugging guide's own flags on real AOTI packages (H200, torch 2.11).
Each case runs in a process of its own, with the environment run_debug_runs.sh gives it (the
printer and NaN-assert flags are read when the package is compiled).
Usage: python3 debug_runs_gen.py CASE DIR
  printer1-nan     a normalizer whose log(x) meets a negative input: NaN from the first kernel on;
                   AOT_INDUCTOR_DEBUG_INTERMEDIATE_VALUE_PRINTER=1 saves every kernel argument
  printer3-towers  a two-tower scorer (user table 2000 rows, item table 800 rows); a user id of
                   2**40 with assert_indirect_indexing=False: an illegal address, printer mode 3
  output-code      an embedding bag model, TORCH_LOGS=+inductor,output_code, an id past the table
                   (the device assert of the generated kernel); the log is kept, not the package
  inf-asserts      exp(x * gain) overflows to INF for a large input, TORCHINDUCTOR_NAN_ASSERTS=1
  custom-cuda-op   a C++/CUDA custom op (torch.utils.cpp_extension, -lineinfo) whose kernel scatters
                   rows to out[idx[r]] without a bounds check, called by an AOTI package through
                   the proxy executor; one index of 2**36 writes far past its output
"""
import os, sys

case, d = sys.argv[1], os.path.abspath(sys.argv[2])
os.makedirs(d, exist_ok=True)
import torch
from torch.export import Dim


def package(ep, configs=None):
    return torch._inductor.aoti_compile_and_package(
        ep, package_path=os.path.join(d, "model.pt2"), inductor_configs=configs or {})


class Normalizer(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.gain = torch.nn.Parameter(torch.full((24,), 0.5))
        self.proj = torch.nn.Linear(24, 12)

    def forward(self, x):
        z = torch.log(x) * self.gain          # NaN where x < 0
        return torch.relu(self.proj(z)).sum(-1)


def printer1_nan():
    m = Normalizer().cuda().eval()
    x = torch.rand(6, 24, device="cuda") + 0.5
    ep = torch.export.export(m, (x,), dynamic_shapes={"x": {0: Dim("rows", min=1, max=512)}})
    r = torch._inductor.aoti_load_package(package(ep))
    bad = x.clone(); bad[2, 7] = -3.0
    out = r(bad); torch.cuda.synchronize()
    print("output has NaN:", bool(out.isnan().any()), flush=True)


class Towers(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.users = torch.nn.Embedding(2000, 32)
        self.items = torch.nn.Embedding(800, 32)
        self.user_mlp = torch.nn.Sequential(torch.nn.Linear(32, 32), torch.nn.ReLU())

    def forward(self, user_ids, item_ids):
        u = self.user_mlp(self.users(user_ids))
        return (u * self.items(item_ids)).sum(-1)


def printer3_towers():
    m = Towers().cuda().eval()
    users = torch.randint(0, 2000, (16,), device="cuda")
    items = torch.randint(0, 800, (16,), device="cuda")
    n = Dim("n", min=1, max=4096)
    ep = torch.export.export(m, (users, items), dynamic_shapes={"user_ids": {0: n}, "item_ids": {0: n}})
    r = torch._inductor.aoti_load_package(package(ep, {"assert_indirect_indexing": False}))
    print("clean run max diff", (r(users, items) - m(users, items)).abs().max().item(), flush=True)
    bad = users.clone(); bad[9] = 1 << 40   # the user table has 2000 rows
    out = r(bad, items); torch.cuda.synchronize()
    print("no error?", tuple(out.shape), flush=True)


class Bags(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.table = torch.nn.Embedding(640, 16)
        self.head = torch.nn.Linear(16, 4)

    def forward(self, ids):
        return self.head(self.table(ids).mean(1))


def output_code():
    m = Bags().cuda().eval()
    ids = torch.randint(0, 640, (4, 10), device="cuda")
    ep = torch.export.export(m, (ids,), dynamic_shapes={"ids": {0: Dim("batch", min=1, max=128)}})
    r = torch._inductor.aoti_load_package(package(ep))
    print("clean run max diff", (r(ids) - m(ids)).abs().max().item(), flush=True)
    bad = ids.clone(); bad[1, 4] = 700     # the table has 640 rows
    out = r(bad); torch.cuda.synchronize()
    print("no error?", tuple(out.shape), flush=True)


class Gain(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.gain = torch.nn.Parameter(torch.full((16,), 8.0))
        self.fc = torch.nn.Linear(16, 4)

    def forward(self, x):
        return self.fc(torch.exp(x * self.gain))   # INF once x * gain > 88.7 in float32


def inf_asserts():
    m = Gain().cuda().eval()
    x = torch.rand(10, 16, device="cuda")
    ep = torch.export.export(m, (x,), dynamic_shapes={"x": {0: Dim("rows", min=1, max=1024)}})
    r = torch._inductor.aoti_load_package(package(ep))
    print("clean run max diff", (r(x) - m(x)).abs().max().item(), flush=True)
    bad = x.clone(); bad[4, 2] = 40.0
    out = r(bad); torch.cuda.synchronize()
    print("no error?", bool(out.isinf().any()), flush=True)


ROWOPS_CU = r'''// rowops: scatter_rows(x, idx, n) puts row r of x at row idx[r] of an n-row output.
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
'''


class Scatter(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(8, 8)

    def forward(self, x, slots):
        return torch.ops.rowops.scatter_rows(self.proj(x), slots, 64).relu()


def custom_cuda_op():
    from torch.utils.cpp_extension import load
    src = os.path.join(d, "rowops.cu")
    open(src, "w").write(ROWOPS_CU)
    build = os.path.join(d, "ext_build"); os.makedirs(build, exist_ok=True)
    load("rowops", sources=[src], extra_cuda_cflags=["-lineinfo"], is_python_module=False,
         build_directory=build, verbose=True)
    m = Scatter().cuda().eval()
    x = torch.randn(12, 8, device="cuda")
    slots = torch.randperm(64, device="cuda")[:12]
    k = Dim("k", min=1, max=64)
    ep = torch.export.export(m, (x, slots), dynamic_shapes={"x": {0: k}, "slots": {0: k}})
    r = torch._inductor.aoti_load_package(package(ep))
    print("clean run max diff", (r(x, slots) - m(x, slots)).abs().max().item(), flush=True)
    bad = slots.clone(); bad[5] = 1 << 36   # the output has 64 rows
    out = r(x, bad); torch.cuda.synchronize()
    print("no error?", tuple(out.shape), flush=True)


{"printer1-nan": printer1_nan, "printer3-towers": printer3_towers, "output-code": output_code,
 "inf-asserts": inf_asserts, "custom-cuda-op": custom_cuda_op}[case]()
