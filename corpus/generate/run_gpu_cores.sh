#!/bin/bash
# Builds the GPU-core corpus cases (gpu_core_gen.py) on a CUDA machine with torch 2.11 and cuda-gdb,
# then records cuda-gdb's reading of each GPU core as ground truth (cuda-gdb.txt).
# NO_CPU_CORE=1 skips the CPU core files (large: 3.5+ MiB even slimmed and xz-compressed).
# Results: one CASE.tar.xz per case in $OUT (or ./out); kernels-py.tar.xz holds the Triton
# sources of the inductor cache (the files cuda-gdb names). Usage: run_gpu_cores.sh [CASE...]
# The corpus keeps gpu.nvcudmp.xz as made here, except column-permute-lightweight-gpu-core, whose
# raw dump was recompressed with `zstd -19` (gpu.nvcudmp.zst) so both codecs are exercised.
# cuda-gdb 13.0 aborts on index-put-ima-gpu-core's dump (no warp records); its output is kept as is.
set -u
OUT=${OUT:-$PWD/out}; mkdir -p "$OUT"
here=$(cd "$(dirname "$0")" && pwd)
gen="$here/gpu_core_gen.py"
W=${W:-/tmp/gpu_cores}; export GPU_CORE_DIR=/tmp/gpucore
rm -rf "$W" $GPU_CORE_DIR /tmp/cores /tmp/gpucore_cache; mkdir -p "$W" $GPU_CORE_DIR /tmp/cores
echo '/tmp/cores/core.%e.%p' > /proc/sys/kernel/core_pattern
if [ "${NO_CPU_CORE:-}" = 1 ]; then ulimit -c 0; else ulimit -c unlimited; fi
export CXX=${CXX:-/usr/bin/g++} PYTHONUNBUFFERED=1
cases=${*:-$(python3 "$gen" list)}
for c in $cases; do python3 "$gen" "$c" "$W/$c" & done
wait
for c in $cases; do
  d=$W/$c
  echo "=== $c"; tail -n 5 "$d/stdout.txt"; tail -n 8 "$d/stderr.txt"
  g=$(ls $GPU_CORE_DIR/$c.*.nvcudmp 2>/dev/null | head -1)
  if [ -z "$g" ]; then echo "no GPU core for $c"; continue; fi
  ls -la "$g"; python3 "$gen" sections "$g"
  cuda-gdb -nx -batch -ex "set pagination off" -ex "set width 0" -ex "target cudacore $g" \
    -ex "info cuda devices" -ex "info cuda kernels" -ex "info cuda blocks" -ex "info cuda warps" \
    -ex "info cuda lanes" -ex "bt" -ex 'info line *$pc' -ex 'x/4i $pc' \
    -ex 'p/x $errorpc' -ex 'info line *$errorpc' -ex 'x/2i $errorpc' > "$d/cuda-gdb.txt" 2>&1
  grep -n -i -E "exception|triggered|focus|^#0" "$d/cuda-gdb.txt" | head -20
  xz -T0 -9 -c "$g" > "$d/gpu.nvcudmp.xz"
  pid=${g%.nvcudmp}; pid=${pid##*.}
  for cc in /tmp/cores/core.*.$pid; do [ -f "$cc" ] || continue
    ls -la "$cc"
    python3 "$here/slim_core.py" "$cc" "/tmp/$c.core.slim" 1048576 && xz -T0 -9 -c "/tmp/$c.core.slim" > "$d/core.xz"
  done
  ls -la "$d" "$d/trace"
  tar -C "$W" -cJf "$OUT/$c.tar.xz" "$c"
done
(cd /tmp/gpucore_cache && find . -name '*.py' | tar -cJf "$OUT/kernels-py.tar.xz" -T -)
ls -la "$OUT"
