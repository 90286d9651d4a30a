"""Builds real failed compiles on a CUDA machine with torch 2.11: each case runs in its own Python
process, with TORCH_TRACE set, and keeps that process's stderr as the user would see it.

Usage: python3 failures_gen.py OUTDIR
"""
import os, subprocess, sys, textwrap

CASES = {
    # Strict export of a model that branches on its data: Dynamo cannot trace the branch.
    "export-data-branch-strict": """
        import torch
        class M(torch.nn.Module):
            def forward(self, x):
                if x.sum() > 0:
                    return x * 2
                return x - 1
        x = torch.randn(8, 16, device="cuda")
        ep = torch.export.export(M(), (x,), strict=True)
    """,
    # AOTInductor compiling with a C++ compiler that does not exist.
    "aoti-no-compiler": """
        import torch
        m = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU()).cuda().eval()
        x = torch.randn(4, 16, device="cuda")
        ep = torch.export.export(m, (x,))
        torch._inductor.aoti_compile_and_package(ep, package_path="model.pt2")
    """,
}

ENV = {
    "aoti-no-compiler": {"CXX": "/opt/no-such-compiler/bin/g++"},
}


def main(out):
    for name, source in CASES.items():
        d = os.path.join(out, name)
        os.makedirs(d, exist_ok=True)
        script = os.path.join(d, "repro.py")
        with open(script, "w") as f:
            f.write(textwrap.dedent(source).lstrip())
        env = dict(os.environ, TORCH_TRACE=os.path.join(d, "trace"), **ENV.get(name, {}))
        with open(os.path.join(d, "stderr.txt"), "w") as err:
            code = subprocess.call([sys.executable, "repro.py"], cwd=d, env=env, stderr=err, stdout=subprocess.DEVNULL,
                                   timeout=500)
        print(name, "exit", code, flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
