"""The oracle of min_core.py and min_gpucore.py: does the analyzer still say the same thing?

Runs `ANALYZER --format json CASE` (with the artifacts' "size" fields removed, nothing else) and
`ANALYZER --backtrace CASE/core [CASE/model.pt2 | CASE/model.so] [CASE/gpu.nvcudmp]` (the GPU core
alone when there is no CPU core), and compares both (exit status, stdout, stderr) with BASE/, which
--record writes. The one number masked in --backtrace's text is the size an .xz core decompressed
to ("a private temporary file (N MiB)"). Exit status 0: identical. The core files in CASE may be
plain or .xz (core.xz, gpu.nvcudmp.xz).

Usage: same_report.py [--record] ANALYZER CASE BASE
"""
import json, os, re, subprocess, sys


def outputs(analyzer, case):
    j = subprocess.run([analyzer, "--format", "json", case], capture_output=True)
    try:
        report = json.loads(j.stdout)
        for a in report.get("artifacts", []):
            a.pop("size", None)
        jout = json.dumps(report, indent=1).encode()
    except ValueError:
        jout = j.stdout
    args = []
    for names in (["core", "core.xz"], ["model.pt2", "model.so"], ["gpu.nvcudmp", "gpu.nvcudmp.xz"]):
        args += [os.path.join(case, n) for n in names if os.path.exists(os.path.join(case, n))][:1]
    if not any(os.path.basename(a).startswith("core") for a in args):
        args = args[-1:]  # a GPU core alone: `--backtrace GPU-CORE`
    b = subprocess.run([analyzer, "--backtrace"] + args, capture_output=True)
    # The one size --backtrace prints: what an .xz core decompressed to.
    b.stdout = re.sub(rb"(to a private temporary file) \(\d+ MiB\)", rb"\1 (N MiB)", b.stdout)
    return {"json.txt": b"%d\n" % j.returncode + jout + b"\n--\n" + j.stderr,
            "backtrace.txt": b"%d\n" % b.returncode + b.stdout + b"\n--\n" + b.stderr}


def main(argv):
    record = argv[:1] == ["--record"]
    analyzer, case, base = argv[1:] if record else argv
    now = outputs(analyzer, case)
    if record:
        os.makedirs(base, exist_ok=True)
        for name, data in now.items():
            open(os.path.join(base, name), "wb").write(data)
        return 0
    return 0 if all(open(os.path.join(base, n), "rb").read() == d for n, d in now.items()) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
