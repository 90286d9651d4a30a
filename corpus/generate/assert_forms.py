"""Every index-assert form Inductor emits, built for real with torch 2.11 (AOTI, CUDA and CPU).

Usage (device machine): CXX=/usr/bin/g++ python3 assert_forms.py OUTDIR [deadline_seconds]

For each model below it packages the model for CUDA (Triton kernels embedded in the wrapper) and for
CPU (C++ kernels in <hash>.kernel.cpp), with TORCH_TRACE on, then runs each package once on an
input that breaks the index and keeps the process's output. It also keeps the torch codegen
functions that write those asserts (torch_src.txt), so every form can be cited to its source.
OUTDIR gets forms.tar.xz (sources, logs, traces) and the summary files.
"""
import concurrent.futures as cf
import glob
import os
import subprocess
import sys
import tarfile
import time
import zipfile

HERE = os.path.abspath(__file__)


def models():
    import torch
    from torch import nn
    from torch.export import Dim

    n = Dim("n", min=2, max=512)

    class EmbStatic(nn.Module):  # literal bound: the constant's row count
        def __init__(s):
            super().__init__()
            s.emb = nn.Embedding(1000, 32)

        def forward(s, ids):
            return s.emb(ids) * 2

    class UpperOnly(nn.Module):  # indices known >= 0: `tmpN < 1000`
        def __init__(s):
            super().__init__()
            s.table = nn.Parameter(torch.randn(1000, 32))

        def forward(s, ids):
            return s.table[ids.clamp(min=0)] + 1

    class LowerOnly(nn.Module):  # indices known < 1000: `0 <= tmpN`
        def __init__(s):
            super().__init__()
            s.table = nn.Parameter(torch.randn(1000, 32))

        def forward(s, ids):
            return s.table[ids.clamp(max=999)] + 1

    class DynTable(nn.Module):  # a kernel parameter: `ks0`
        def forward(s, x, idx):
            return torch.index_select(x, 0, idx) * 2

    class Product(nn.Module):  # an expression of parameters: `ks0*ks1`
        def forward(s, x, idx):
            return x.reshape(-1)[idx] * 2

    class Sum(nn.Module):  # `1 + ks0`
        def forward(s, x, idx):
            return torch.cat([x, x[:1]])[idx] * 2

    class TwoIndex(nn.Module):  # two asserts in one kernel
        def __init__(s):
            super().__init__()
            s.table = nn.Parameter(torch.randn(1000, 32))

        def forward(s, i, j):
            return s.table[i, j] * 2

    class Gather(nn.Module):
        def forward(s, x, idx):
            return torch.gather(x, 1, idx) * 2

    class IndexPut(nn.Module):  # an assert on a store
        def forward(s, x, idx, v):
            return x.index_put((idx,), v, accumulate=True)

    rows = Dim("rows", min=2, max=4096)
    cols = Dim("cols", min=2, max=64)
    k = Dim("k", min=1, max=64)
    L = torch.long
    # name: (module, example args, dynamic shapes, bad args)
    return {
        "emb_static": (EmbStatic(), (torch.randint(0, 1000, (8,)),), {"ids": {0: n}},
                       (torch.tensor([3, 1500]),)),
        "upper_only": (UpperOnly(), (torch.randint(0, 1000, (8,)),), {"ids": {0: n}},
                       (torch.tensor([3, 1500]),)),
        "lower_only": (LowerOnly(), (torch.randint(0, 1000, (8,)),), {"ids": {0: n}},
                       (torch.tensor([3, -1500]),)),
        "dyn_table": (DynTable(), (torch.randn(16, 8), torch.randint(0, 16, (4,))),
                      {"x": {0: rows}, "idx": {0: k}}, (torch.randn(4, 8), torch.tensor([1, 10]))),
        "product": (Product(), (torch.randn(16, 8), torch.randint(0, 128, (4,))),
                    {"x": {0: rows, 1: cols}, "idx": {0: k}}, (torch.randn(4, 8), torch.tensor([1, 40]))),
        "sum": (Sum(), (torch.randn(16, 8), torch.randint(0, 17, (4,))), {"x": {0: rows}, "idx": {0: k}},
                (torch.randn(4, 8), torch.tensor([1, 9]))),
        "two_index": (TwoIndex(), (torch.randint(0, 1000, (8,)), torch.randint(0, 32, (8,))),
                      {"i": {0: n}, "j": {0: n}}, (torch.tensor([3, 4]), torch.tensor([1, 40]))),
        "gather": (Gather(), (torch.randn(16, 8), torch.randint(0, 8, (16, 3))),
                   {"x": {0: rows, 1: cols}, "idx": {0: rows}}, (torch.randn(4, 8), torch.full((4, 3), 9, dtype=L))),
        "index_put": (IndexPut(), (torch.randn(16, 8), torch.randint(0, 16, (4,)), torch.randn(4, 8)),
                      {"x": {0: rows}, "idx": {0: k}, "v": {0: k}},
                      (torch.randn(4, 8), torch.tensor([1, 9]), torch.randn(2, 8))),
    }


# Variants built with other Inductor configs. With `compute_all_bounds` the value ranges of the
# clamped indices reach `indirect_indexing`, which then asserts one side only (common.py:
# `assert_lower = not (var.bounds.lower >= 0)`, `assert_upper = ... not (var.bounds.upper < size)`).
VARIANTS = {
    "upper_only_bounds": ("upper_only", {"compute_all_bounds": True}),
    "lower_only_bounds": ("lower_only", {"compute_all_bounds": True}),
}


def model(name):
    base, configs = VARIANTS.get(name, (name, {}))
    return models()[base], configs


def build(name, dev, d):
    import torch
    (m, args, shapes, _), configs = model(name)
    m = m.to(dev).eval()
    args = tuple(a.to(dev) for a in args)
    ep = torch.export.export(m, args, dynamic_shapes=shapes)
    p = torch._inductor.aoti_compile_and_package(ep, package_path=os.path.join(d, "model.pt2"),
                                                 inductor_configs=configs)
    r = torch._inductor.aoti_load_package(p)
    print("ok", tuple(r(*args).shape), flush=True)


def run(name, dev, d):
    import torch
    (_, _, _, bad), _ = model(name)
    r = torch._inductor.aoti_load_package(os.path.join(d, "model.pt2"))
    bad = tuple(a.to(dev) for a in bad)
    print("running with", [a.tolist() if a.dtype == torch.long else tuple(a.shape) for a in bad], flush=True)
    o = r(*bad)
    if dev == "cuda":
        torch.cuda.synchronize()
    print("result", tuple(o.shape), flush=True)


def jit_cpu(d):
    """torch.compile (no AOTI) on CPU: the text a JIT-compiled C++ kernel's check raises."""
    import torch
    m, args, _, bad = models()["emb_static"]
    c = torch.compile(m.eval())
    print("ok", tuple(c(*args).shape), flush=True)
    c(*bad)


def torch_sources(out):
    import torch
    base = os.path.dirname(torch.__file__)
    with open(os.path.join(out, "torch_src.txt"), "w") as f:
        f.write(f"torch {torch.__version__} at {base}\n")
        for pattern in ("def indirect_assert", "def check_bounds", "def assert_function", "index out of bounds",
                        "def device_assert_async", "def generate_assert", "assert_indirect_indexing",
                        "debug_index_asserts", "AOTI_TORCH_CHECK", "def indirect_indexing"):
            r = subprocess.run(["grep", "-rn", "--include=*.py", "--include=*.h", pattern,
                                os.path.join(base, "_inductor"), os.path.join(base, "include/torch/csrc/inductor")],
                               capture_output=True, text=True)
            f.write(f"\n==== grep {pattern!r}\n{r.stdout}")
        for rel, fn in (("_inductor/codegen/common.py", "def indirect_assert"),
                        ("_inductor/codegen/common.py", "def indirect_indexing"),
                        ("_inductor/codegen/common.py", "def check_bounds"),
                        ("_inductor/codegen/simd.py", "def check_bounds"),
                        ("_inductor/codegen/triton.py", "def check_bounds"),
                        ("_inductor/codegen/triton.py", "def assert_function"),
                        ("_inductor/codegen/cpp.py", "def indirect_assert"),
                        ("_inductor/codegen/cpp.py", "def assert_function"),
                        ("_inductor/codegen/cpp.py", "def check_bounds"),
                        ("_inductor/codegen/halide.py", "def check_bounds"),
                        ("_inductor/codegen/mps.py", "def check_bounds"),
                        ("_inductor/utils.py", "def generate_assert")):
            path = os.path.join(base, rel)
            if not os.path.exists(path):
                continue
            lines = open(path).read().split("\n")
            for i, line in enumerate(lines):
                if line.strip().startswith(fn):
                    indent = len(line) - len(line.lstrip())
                    end = i + 1
                    while end < len(lines) and (not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip()) > indent):
                        end += 1
                    f.write(f"\n==== {rel}:{i + 1} {fn}\n" + "\n".join(f"{i + 1 + k}: {t}" for k, t in enumerate(lines[i:end])) + "\n")


def sub(args, d, log, env, timeout):
    with open(log, "w") as f:
        try:
            r = subprocess.run([sys.executable, HERE] + args, stdout=f, stderr=subprocess.STDOUT, env=env,
                               cwd=d, timeout=timeout)
            f.write(f"\n[exit {r.returncode}]\n")
        except subprocess.TimeoutExpired:
            f.write("\n[timed out]\n")


def main(out, deadline):
    start = time.time()
    work = "/tmp/assert_forms"
    os.makedirs(work, exist_ok=True)
    names = os.environ.get("FORMS", "").split(",") if os.environ.get("FORMS") else list(models())
    if not os.environ.get("FORMS"):
        torch_sources(out)
    jobs = []
    for name in names:
        for dev in ("cuda", "cpu"):
            d = os.path.join(work, f"{name}-{dev}")
            os.makedirs(d, exist_ok=True)
            jobs.append((name, dev, d))

    def env_for(d):
        e = dict(os.environ, TORCH_TRACE=os.path.join(d, "trace"), TORCHINDUCTOR_CACHE_DIR=os.path.join(d, "cache"))
        e.setdefault("CXX", "/usr/bin/g++")
        return e

    left = lambda: max(10, deadline - (time.time() - start))
    with cf.ThreadPoolExecutor(max_workers=12) as pool:
        jit = None if os.environ.get("FORMS") else pool.submit(sub, ["jit", "cpu", work], work, os.path.join(work, "jit-cpu.log"),
                          dict(os.environ, TORCHINDUCTOR_CACHE_DIR=os.path.join(work, "jitcache")), left() * 0.6)
        futures = [pool.submit(sub, ["build", n, dev, d], d, os.path.join(d, "build.log"), env_for(d), left() * 0.7)
                   for n, dev, d in jobs]
        cf.wait(futures)
        futures = [pool.submit(sub, ["run", n, dev, d], d, os.path.join(d, "run.log"),
                               dict(os.environ, TORCHINDUCTOR_CACHE_DIR=os.path.join(d, "runcache")), left() * 0.8)
                   for n, dev, d in jobs if os.path.exists(os.path.join(d, "model.pt2"))]
        cf.wait(futures + ([jit] if jit else []))

    # The generated sources out of each package, beside the logs.
    for n, dev, d in jobs:
        p = os.path.join(d, "model.pt2")
        if not os.path.exists(p):
            continue
        with zipfile.ZipFile(p) as z:
            for entry in z.namelist():
                if entry.endswith((".wrapper.cpp", ".kernel.cpp", ".wrapper_metadata.json")):
                    with open(os.path.join(d, os.path.basename(entry)), "wb") as f:
                        f.write(z.read(entry))
    with open(os.path.join(out, "asserts.txt"), "w") as f:
        for n, dev, d in jobs:
            f.write(f"==== {n}-{dev}\n")
            for src in sorted(glob.glob(os.path.join(d, "*.cpp"))):
                for i, line in enumerate(open(src, errors="replace").read().split("\n")):
                    if "index out of bounds" in line or "ks0 = " in line:
                        f.write(f"{os.path.basename(src)}:{i + 1}: {line}\n")
            for log in ("build.log", "run.log"):
                path = os.path.join(d, log)
                if os.path.exists(path):
                    text = open(path, errors="replace").read()
                    f.write(f"--- {log} (last 3000 chars)\n{text[-3000:]}\n")
    with tarfile.open(os.path.join(out, "forms.tar.xz"), "w:xz") as t:
        for n, dev, d in jobs:
            for path in glob.glob(os.path.join(d, "*")):
                base = os.path.basename(path)
                if base.endswith((".cpp", ".json", ".log")) or base == "trace":
                    t.add(path, arcname=f"{n}-{dev}/{base}")
            if os.path.exists(os.path.join(d, "model.pt2")) and n in ("upper_only_bounds", "product", "emb_static"):
                t.add(os.path.join(d, "model.pt2"), arcname=f"{n}-{dev}/model.pt2")
        if os.path.exists(os.path.join(work, "jit-cpu.log")):
            t.add(os.path.join(work, "jit-cpu.log"), arcname="jit-cpu.log")
    print(f"done in {time.time() - start:.0f}s")


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "build":
        build(sys.argv[2], sys.argv[3], sys.argv[4])
    elif mode == "run":
        run(sys.argv[2], sys.argv[3], sys.argv[4])
    elif mode == "jit":
        jit_cpu(sys.argv[3])
    else:
        main(mode, float(sys.argv[2]) if len(sys.argv) > 2 else 500)
