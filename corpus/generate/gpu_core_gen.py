"""Builds real AOTI cases that end in a GPU exception with a CUDA GPU core dump.

Usage: python3 gpu_core_gen.py CASE OUTDIR        (one case: build, then crash)
       python3 gpu_core_gen.py list
       python3 gpu_core_gen.py sections GPUCORE  (checks e_machine 190 and .cudbg.* sections)

Each case runs in two processes, both appending to OUTDIR/stdout.txt and OUTDIR/stderr.txt:
  build: torch.export with named dynamic Dims, then aoti_compile_and_package -> OUTDIR/model.pt2
         (TORCH_TRACE=OUTDIR/trace).
  crash: a fresh process (as a serving process would be) loads the package, runs one good input
         (prints "ok"), then the bad input, then torch.cuda.synchronize(). It runs with
         CUDA_ENABLE_COREDUMP_ON_EXCEPTION=1 and CUDA_COREDUMP_FILE=$GPU_CORE_DIR/CASE.%p.nvcudmp
         plus the case's own dump flags (CRASH_ENV below). Inputs are made on the host and copied,
         so the process loads no PyTorch CUDA kernels of its own: the GPU core holds only the
         package's cubins and stays small.
Crash phases of cases run in parallel are serialized with a lock file in $GPU_CORE_DIR.
Needs a CUDA machine with torch 2.11 / triton 3.6. CXX should name a g++ that links libstdc++
dynamically (/usr/bin/g++ on the device image). run_gpu_cores.sh runs all cases plus cuda-gdb.
"""
import os, sys, subprocess, time, fcntl, resource

try:
    import triton
    import triton.language as tl
except ImportError:  # "list" and "sections" work without triton
    triton = None

CORE_DIR = os.environ.get("GPU_CORE_DIR", "/tmp/gpucore")

CASES = {}          # case name -> (build_fn, crash_fn)
CRASH_ENV = {}      # case name -> extra environment for the crash phase


def case(name, crash_env=None):
    def reg(build):
        CASES[name] = [build, None]
        CRASH_ENV[name] = crash_env or {}
        return build
    return reg


def crash_of(name):
    def reg(fn):
        CASES[name][1] = fn
        return fn
    return reg


def package(ep, d, configs=None):
    import torch
    p = torch._inductor.aoti_compile_and_package(
        ep, package_path=os.path.join(d, "model.pt2"), inductor_configs=configs or {})
    print("packaged", p, flush=True)
    return p


def coredump_settings(want_flags=None):
    """Prints the driver's coredump settings (global and current context) through libcuda.
    With want_flags, sets CU_COREDUMP_GENERATION_FLAGS on both where the bits are missing."""
    try:
        _coredump_settings(want_flags)
    except Exception as e:  # never let the diagnostics stop the case
        print("coredump settings: unavailable (%s: %s)" % (type(e).__name__, e), flush=True)


def _coredump_settings(want_flags):
    import ctypes
    cu = ctypes.CDLL("libcuda.so.1")
    attrs = {1: "enable_on_exception", 2: "trigger_host", 3: "lightweight", 7: "generation_flags"}

    def get(fn, a):
        size = ctypes.c_size_t(0)
        rc = fn(ctypes.c_int(a), None, ctypes.byref(size))
        if rc != 0 or not 0 < size.value <= 8:
            return "rc=%d" % rc
        buf = ctypes.create_string_buffer(size.value)
        rc = fn(ctypes.c_int(a), buf, ctypes.byref(size))
        return "0x%x" % int.from_bytes(buf.raw, "little") if rc == 0 else "rc=%d" % rc

    def show(tag):
        for scope, fn in (("global", cu.cuCoredumpGetAttributeGlobal), ("context", cu.cuCoredumpGetAttribute)):
            print("coredump settings (%s, %s): %s" % (tag, scope, ", ".join(
                "%s=%s" % (n, get(fn, a)) for a, n in attrs.items())), flush=True)
    show("from environment")
    if want_flags is not None:
        for scope, g, st in (("global", cu.cuCoredumpGetAttributeGlobal, cu.cuCoredumpSetAttributeGlobal),
                             ("context", cu.cuCoredumpGetAttribute, cu.cuCoredumpSetAttribute)):
            cur = get(g, 7)
            if cur.startswith("0x") and int(cur, 16) & want_flags == want_flags:
                continue
            v = ctypes.c_int(want_flags); sz = ctypes.c_size_t(4)
            rc = st(ctypes.c_int(7), ctypes.byref(v), ctypes.byref(sz))
            print("set %s generation_flags=0x%x rc=%d" % (scope, want_flags, rc), flush=True)
        show("after set")


def load(d):
    import torch
    return torch._inductor.aoti_load_package(os.path.join(d, "model.pt2"))


# ------------------------------------------------------------------ 1. store-side scatter
# index_put(accumulate=True) lowers to a Triton kernel with tl.atomic_add; with
# assert_indirect_indexing=False the scatter index is not checked on the device. The grid is
# tiny: by the time the fault is reported the warps have exited, and the GPU core has no
# grid/CTA/warp records (only the exception PC), which cuda-gdb 13.0 cannot cope with.
def scatter_add_rows():
    import torch

    class ScatterAddRows(torch.nn.Module):
        def forward(self, x, idx, vals):
            return x.index_put((idx,), vals, accumulate=True)
    return ScatterAddRows()


@case("index-put-ima-gpu-core")
def index_put_build(d):
    import torch
    from torch.export import Dim
    m = scatter_add_rows().cuda().eval()
    x = torch.randn(64, 16, device="cuda")
    idx = torch.randint(0, 64, (128,), device="cuda")
    vals = torch.randn(128, 16, device="cuda")
    rows, nnz = Dim("rows", min=2, max=4096), Dim("nnz", min=2, max=65536)
    ep = torch.export.export(m, (x, idx, vals),
                             dynamic_shapes={"x": {0: rows}, "idx": {0: nnz}, "vals": {0: nnz}})
    print(ep.graph_module.code.strip(), flush=True)
    package(ep, d, {"assert_indirect_indexing": False})


@crash_of("index-put-ima-gpu-core")
def index_put_crash(d):
    import torch
    r = load(d)
    g = torch.Generator().manual_seed(0)
    x = torch.randn(100, 16, generator=g)
    idx = torch.randint(0, 100, (300,), generator=g)
    vals = torch.randn(300, 16, generator=g)
    ref = x.index_put((idx,), vals, accumulate=True)
    out = r(x.cuda(), idx.cuda(), vals.cuda())
    print("ok", (out.cpu() - ref).abs().max().item(), flush=True)
    bad = idx.clone(); bad[123] = 2**36
    print("bad input: x rows=100, idx[123]=%d (valid 0..99), nnz=300" % bad[123].item(), flush=True)
    out = r(x.cuda(), bad.cuda(), vals.cuda())
    torch.cuda.synchronize()
    print("no error?", out.shape, flush=True)


# ------------------------------------------------------------------ 2. user Triton kernel
# A user-defined Triton kernel (torch.library.triton_op + wrap_triton) unpacks (re, im) float32
# pairs that start `start` floats into a packed buffer (after a header) and moves each pair as
# one 64-bit word. That is only valid when `start` is even; an odd header length makes every
# 64-bit load misaligned. The buffer itself is aligned, so AOTI's input-alignment guard (which
# copies a misaligned input) does not help.
if triton is not None:
    @triton.jit
    def unpack_swap_pairs_kernel(buf_ptr, start_ptr, out_ptr, n_pairs, BLOCK: tl.constexpr):
        pid = tl.program_id(0)
        offs = pid * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n_pairs
        start = tl.load(start_ptr)  # header length, in floats
        src = (buf_ptr + start).to(tl.pointer_type(tl.uint64))  # one (re, im) pair = one 64-bit word
        dst = out_ptr.to(tl.pointer_type(tl.uint64))
        w = tl.load(src + offs, mask=mask)
        tl.store(dst + offs, (w >> 32) | (w << 32), mask=mask)


_unpack = None


def register_unpack_swap_pairs():
    global _unpack
    if _unpack is not None:
        return _unpack
    import torch
    from torch.library import triton_op, wrap_triton

    @triton_op("gpucore::unpack_swap_pairs", mutates_args={})
    def unpack_swap_pairs(buf: torch.Tensor, start: torch.Tensor) -> torch.Tensor:
        n_pairs = buf.shape[0] - 2  # the first two rows leave room for a header of up to 4 floats
        out = buf.new_empty((n_pairs, 2))

        def grid(meta):
            return (triton.cdiv(n_pairs, meta["BLOCK"]),)
        wrap_triton(unpack_swap_pairs_kernel)[grid](buf, start, out, n_pairs, BLOCK=256)
        return out
    _unpack = unpack_swap_pairs
    return unpack_swap_pairs


def unpack_ref(buf, start):
    import torch
    n = buf.shape[0] - 2
    z = buf.reshape(-1)[start:start + 2 * n].view(n, 2)
    return torch.stack([-z[:, 1], z[:, 0]], 1)


@case("user-triton-misaligned-gpu-core",
      crash_env={"CUDA_COREDUMP_GENERATION_FLAGS": "skip_abort"})
def unpack_build(d):
    import torch
    from torch.export import Dim
    register_unpack_swap_pairs()

    class RotatePackedPairs(torch.nn.Module):
        """Unpacks complex numbers stored as (re, im) float pairs and multiplies them by i."""
        def __init__(self):
            super().__init__()
            self.register_buffer("sign", torch.tensor([-1.0, 1.0]))

        def forward(self, buf, start):
            return torch.ops.gpucore.unpack_swap_pairs(buf, start) * self.sign
    m = RotatePackedPairs().cuda().eval()
    buf = torch.randn(514, 2, device="cuda")
    start = torch.tensor([2], device="cuda")
    print("eager check", (m(buf, start).cpu() - unpack_ref(buf.cpu(), 2)).abs().max().item(), flush=True)
    ep = torch.export.export(m, (buf, start),
                             dynamic_shapes={"buf": {0: Dim("rows", min=16, max=1 << 20)}, "start": None})
    print(ep.graph_module.code.strip(), flush=True)
    package(ep, d)


@crash_of("user-triton-misaligned-gpu-core")
def unpack_crash(d):
    import torch
    r = load(d)
    g = torch.Generator().manual_seed(0)
    buf = torch.randn(1026, 2, generator=g)
    out = r(buf.cuda(), torch.tensor([2]).cuda())
    print("ok", (out.cpu() - unpack_ref(buf, 2)).abs().max().item(), flush=True)
    coredump_settings()
    buf = torch.randn(2050, 2, generator=g)
    print("bad input: buf shape=(2050, 2) (aligned), start=[3] (odd header length, in floats)", flush=True)
    out = r(buf.cuda(), torch.tensor([3]).cuda())
    torch.cuda.synchronize()
    print("no error?", out.shape, flush=True)


# ------------------------------------------------------------------ 4. store side, large grid
# A per-row histogram: scatter_add along dim 1 into a (batch, 64) zero tensor. Inductor lowers
# it to a Triton kernel with tl.atomic_add; the grid is large, so most blocks are still running
# or waiting when the first block's atomic faults.
@case("scatter-add-histogram-gpu-core",
      crash_env={"CUDA_COREDUMP_GENERATION_FLAGS": "skip_global_memory"})
def histogram_build(d):
    import torch
    from torch.export import Dim

    class RowHistogram(torch.nn.Module):
        def forward(self, bins, weights):
            out = weights.new_zeros(bins.shape[0], 64)
            return out.scatter_add(1, bins, weights)
    m = RowHistogram().cuda().eval()
    bins = torch.randint(0, 64, (32, 1000), device="cuda")
    weights = torch.rand(32, 1000, device="cuda")
    batch, n = Dim("batch", min=1, max=8192), Dim("samples", min=2, max=4096)
    ep = torch.export.export(m, (bins, weights),
                             dynamic_shapes={"bins": {0: batch, 1: n}, "weights": {0: batch, 1: n}})
    print(ep.graph_module.code.strip(), flush=True)
    package(ep, d, {"assert_indirect_indexing": False})


@crash_of("scatter-add-histogram-gpu-core")
def histogram_crash(d):
    import torch
    r = load(d)
    g = torch.Generator().manual_seed(0)
    bins = torch.randint(0, 64, (4096, 4096), generator=g)
    weights = torch.rand(4096, 4096, generator=g)
    ref = torch.zeros(4096, 64).scatter_add(1, bins, weights)
    out = r(bins.cuda(), weights.cuda())
    print("ok", (out.cpu() - ref).abs().max().item(), flush=True)
    coredump_settings()
    bad = bins.clone(); bad[0, 0] = 1 << 40
    print("bad input: bins shape=(4096, 4096), bins[0, 0]=%d (valid 0..63)" % bad[0, 0].item(), flush=True)
    out = r(bad.cuda(), weights.cuda())
    torch.cuda.synchronize()
    print("no error?", out.shape, flush=True)


# ------------------------------------------------------------------ 3. reduction
# A weighted bag sum: gather rows of a table by id, scale, sum over the (dynamic) bag dim.
# Inductor fuses the gather into a looped reduction kernel (triton_red_*).
# CUDA_ENABLE_LIGHTWEIGHT_COREDUMP=1 is set, as older guides say, but driver 580 / CUDA 13
# ignores it: the dump is a full one (global, local, shared memory, both ELF image kinds).
def bag_table():
    import torch
    return torch.randn(1000, 32, generator=torch.Generator().manual_seed(1234))


@case("bag-sum-reduction-gpu-core",
      crash_env={"CUDA_ENABLE_LIGHTWEIGHT_COREDUMP": "1"})
def bag_sum_build(d):
    import torch
    from torch.export import Dim

    class WeightedBagSum(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("table", bag_table())

        def forward(self, ids, w):
            return (self.table[ids] * w.unsqueeze(-1)).sum(dim=1)
    m = WeightedBagSum().cuda().eval()
    ids = torch.randint(0, 1000, (8, 1500), device="cuda")
    w = torch.rand(8, 1500, device="cuda")
    batch, bag = Dim("batch", min=1, max=256), Dim("bag", min=2, max=4096)
    ep = torch.export.export(m, (ids, w), dynamic_shapes={"ids": {0: batch, 1: bag}, "w": {0: batch, 1: bag}})
    print(ep.graph_module.code.strip(), flush=True)
    package(ep, d, {"assert_indirect_indexing": False})


@crash_of("bag-sum-reduction-gpu-core")
def bag_sum_crash(d):
    import torch
    r = load(d)
    table = bag_table()
    g = torch.Generator().manual_seed(0)
    ids = torch.randint(0, 1000, (16, 2000), generator=g)
    w = torch.rand(16, 2000, generator=g)
    ref = (table[ids] * w.unsqueeze(-1)).sum(1)
    out = r(ids.cuda(), w.cuda())
    print("ok", (out.cpu() - ref).abs().max().item(), flush=True)
    bad = ids.clone(); bad[5, 1234] = -(2**33)
    print("bad input: ids shape=(16, 2000), ids[5, 1234]=%d (valid 0..999)" % bad[5, 1234].item(), flush=True)
    out = r(bad.cuda(), w.cuda())
    torch.cuda.synchronize()
    print("no error?", out.shape, flush=True)


# ------------------------------------------------------------------ 5. pointwise gather, lightweight
# Column permutation x[:, perm]: a pointwise Triton kernel that loads perm, then gathers from x.
# One bad entry of perm is read by every row. Lightweight GPU core: the generation flags that
# CU_COREDUMP_LIGHTWEIGHT_FLAGS stands for, given by name in CUDA_COREDUMP_GENERATION_FLAGS
# (and set through the driver API if the environment did not take).
LIGHTWEIGHT = 0x2f  # skip nonrelocated ELF images, global, shared, local and constbank memory


@case("column-permute-lightweight-gpu-core",
      crash_env={"CUDA_ENABLE_LIGHTWEIGHT_COREDUMP": "1",
                 "CUDA_COREDUMP_GENERATION_FLAGS": "skip_nonrelocated_elf_images,skip_global_memory,"
                 "skip_shared_memory,skip_local_memory,skip_constbank_memory"})
def permute_build(d):
    import torch
    from torch.export import Dim

    class PermuteColumns(torch.nn.Module):
        def forward(self, x, perm):
            return x[:, perm] * 0.5
    m = PermuteColumns().cuda().eval()
    x = torch.randn(8, 64, device="cuda")
    perm = torch.randperm(64, device="cuda")
    batch, feat = Dim("batch", min=1, max=4096), Dim("feat", min=2, max=8192)
    ep = torch.export.export(m, (x, perm), dynamic_shapes={"x": {0: batch, 1: feat}, "perm": {0: feat}})
    print(ep.graph_module.code.strip(), flush=True)
    package(ep, d, {"assert_indirect_indexing": False})


@crash_of("column-permute-lightweight-gpu-core")
def permute_crash(d):
    import torch
    r = load(d)
    g = torch.Generator().manual_seed(0)
    x = torch.randn(512, 1000, generator=g)
    perm = torch.randperm(1000, generator=g)
    out = r(x.cuda(), perm.cuda())
    print("ok", (out.cpu() - x[:, perm] * 0.5).abs().max().item(), flush=True)
    coredump_settings(LIGHTWEIGHT)
    # a small batch: a lightweight dump still holds the registers of every resident warp, and
    # 512 rows (4000 blocks) made a 126 MB dump (5 MB after xz)
    x = x[:16].contiguous()
    bad = perm.clone(); bad[7] = 1 << 40
    print("bad input: x shape=(16, 1000), perm[7]=%d (valid 0..999)" % bad[7].item(), flush=True)
    out = r(x.cuda(), bad.cuda())
    torch.cuda.synchronize()
    print("no error?", out.shape, flush=True)


# ------------------------------------------------------------------ driver
def sections(path):
    """Prints an ELF file's machine and a summary of its section names (GPU core check)."""
    import struct, collections
    f = open(path, "rb"); h = f.read(64)
    mach = struct.unpack_from("<H", h, 18)[0]
    shoff = struct.unpack_from("<Q", h, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", h, 0x3a)
    f.seek(shoff); sh0 = struct.unpack("<IIQQQQIIQQ", f.read(shentsize))
    if shnum == 0:          # extended numbering: real count in section 0's sh_size
        shnum = sh0[5]
    if shstrndx == 0xffff:  # SHN_XINDEX: real index in section 0's sh_link
        shstrndx = sh0[6]
    f.seek(shoff); raw = f.read(shentsize * shnum)
    sh = [struct.unpack_from("<IIQQQQIIQQ", raw, i * shentsize) for i in range(shnum)]
    f.seek(sh[shstrndx][4]); names = f.read(sh[shstrndx][5])
    agg = collections.OrderedDict()
    for s in sh:
        n = names[s[0]:names.index(b"\0", s[0])].decode()
        k = ".".join(n.split(".")[:3])
        c = agg.setdefault(k, [0, 0]); c[0] += 1; c[1] += s[5] if s[1] != 8 else 0
    print("%s: e_machine=%d osabi=0x%x sections=%d" % (path, mach, h[7], shnum))
    for k, (n, b) in agg.items():
        print("  %-22s %4d sections %12d bytes" % (k or "(null)", n, b))
    return mach == 190 and any(k.startswith(".cudbg.") for k in agg)


def phase(name, which, d):
    fn = CASES[name][0 if which == "build" else 1]
    fn(d)


def run_case(name, d):
    d = os.path.abspath(d)
    os.makedirs(d, exist_ok=True)
    os.makedirs(CORE_DIR, exist_ok=True)
    env = dict(os.environ)
    env.setdefault("CXX", "/usr/bin/g++")
    env["PYTHONUNBUFFERED"] = "1"
    env["TORCH_TRACE"] = os.path.join(d, "trace")
    env["TORCHINDUCTOR_CACHE_DIR"] = os.path.join("/tmp/gpucore_cache", name)
    out = open(os.path.join(d, "stdout.txt"), "ab")
    err = open(os.path.join(d, "stderr.txt"), "ab")
    me = [sys.executable, os.path.abspath(__file__)]

    def core_unlimited():  # NO_CPU_CORE=1: no CPU core file (they are large)
        lim = 0 if os.environ.get("NO_CPU_CORE") == "1" else resource.RLIM_INFINITY
        resource.setrlimit(resource.RLIMIT_CORE, (lim, lim))

    t = time.time()
    rc = subprocess.call(me + ["--phase", "build", name, d], env=env, stdout=out, stderr=err, timeout=540)
    print("[%s] build rc=%s %.0fs" % (name, rc, time.time() - t), flush=True)
    if rc != 0:
        return rc
    cenv = dict(env)
    cenv["CUDA_ENABLE_COREDUMP_ON_EXCEPTION"] = "1"
    cenv["CUDA_COREDUMP_FILE"] = os.path.join(CORE_DIR, name + ".%p.nvcudmp")
    cenv.update(CRASH_ENV[name])
    with open(os.path.join(CORE_DIR, ".lock"), "w") as lk:
        fcntl.flock(lk, fcntl.LOCK_EX)
        t = time.time()
        p = subprocess.Popen(me + ["--phase", "crash", name, d], env=cenv, stdout=out, stderr=err,
                             preexec_fn=core_unlimited)
        try:
            rc = p.wait(timeout=300)
        except subprocess.TimeoutExpired:
            p.kill(); rc = p.wait()
        print("[%s] crash pid=%d rc=%s %.0fs env=%s" % (name, p.pid, rc, time.time() - t,
              {k: v for k, v in cenv.items() if k.startswith("CUDA_")}), flush=True)
    return 0


if __name__ == "__main__":
    a = sys.argv[1:]
    if a and a[0] == "list":
        print("\n".join(CASES))
    elif len(a) == 2 and a[0] == "sections":
        sys.exit(0 if sections(a[1]) else 1)
    elif len(a) == 4 and a[0] == "--phase":
        phase(a[2], a[1], a[3])
    elif len(a) == 2 and a[0] in CASES:
        sys.exit(run_case(a[0], a[1]))
    else:
        print(__doc__); sys.exit(2)
