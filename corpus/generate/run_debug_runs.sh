#!/bin/bash
# Builds issue 30's cases (debug_runs_gen.py) on a CUDA machine with torch 2.11 and cuda-gdb: each
# case in a process of its own, with the guide's flags for it, its output as run.log (stdout and
# stderr together, line-buffered), its GPU core (when the driver wrote one) with cuda-gdb's reading
# of it, and the files the intermediate value printer saved. One CASE.tar.xz per case in $OUT.
# Usage: run_debug_runs.sh [CASE...]
set -u
OUT=${OUT:-$PWD/out}; mkdir -p "$OUT"
here=$(cd "$(dirname "$0")" && pwd)
gen="$here/debug_runs_gen.py"
W=/tmp/dbg; rm -rf $W /tmp/gpucore; mkdir -p $W /tmp/gpucore
ulimit -c 0
# The device image sets CXX to a g++ that links libstdc++ statically into the model .so (a load
# crash, case load-crash-static-libstdcxx): these cases want the system one.
export CXX=/usr/bin/g++ PYTHONUNBUFFERED=1
flags() {
  case $1 in
    printer1-nan) echo "AOT_INDUCTOR_DEBUG_INTERMEDIATE_VALUE_PRINTER=1" ;;
    printer3-towers) echo "AOT_INDUCTOR_DEBUG_INTERMEDIATE_VALUE_PRINTER=3 CUDA_LAUNCH_BLOCKING=1 PYTORCH_NO_CUDA_MEMORY_CACHING=1 CUDA_ENABLE_COREDUMP_ON_EXCEPTION=1" ;;
    output-code) echo "TORCH_LOGS=+inductor,output_code" ;;
    inf-asserts) echo "TORCHINDUCTOR_NAN_ASSERTS=1 TORCH_SHOW_CPP_STACKTRACES=1" ;;
    custom-cuda-op) echo "CUDA_LAUNCH_BLOCKING=1 CUDA_ENABLE_COREDUMP_ON_EXCEPTION=1 TORCH_SHOW_CPP_STACKTRACES=1" ;;
  esac
}
cases=${*:-printer1-nan printer3-towers output-code inf-asserts custom-cuda-op}
touch $W/.start
for c in $cases; do
  d=$W/$c; mkdir -p $d/cwd
  trace=""; [ $c != output-code ] && trace="TORCH_TRACE=$d/trace"
  (cd $d/cwd && env $(flags $c) $trace TORCHINDUCTOR_CACHE_DIR=$d/inductor_cache \
     CUDA_COREDUMP_FILE=/tmp/gpucore/$c.%p.nvcudmp \
     stdbuf -oL -eL python3 "$gen" $c $d > $d/run.log 2>&1; echo "exit status $?" > $d/exit.txt) &
done
wait
for c in $cases; do
  d=$W/$c
  echo "=== $c: $(cat $d/exit.txt)"; tail -n 6 $d/run.log | cut -c1-300
  # What the printer saved (mode 1), wherever it went: the case's cwd, /tmp or home.
  [ $c = printer1-nan ] && find $d/cwd /tmp /root -xdev -newer $W/.start -name '*.pt' -not -path "$W/*/inductor_cache/*" 2>/dev/null | head -2000 > $d/saved.txt
  if [ -s $d/saved.txt ]; then
    mkdir -p $d/saved; echo "saved .pt files: $(wc -l < $d/saved.txt) (first: $(head -1 $d/saved.txt))"
    while read -r f; do cp --parents "$f" $d/saved/; done < $d/saved.txt
  fi
  for g in /tmp/gpucore/$c.*; do
    [ -f "$g" ] || continue
    echo "GPU core $g"; ls -la "$g"
    cuda-gdb -nx -batch -ex "set pagination off" -ex "set width 0" -ex "target cudacore $g" \
      -ex "info cuda devices" -ex "info cuda kernels" -ex "info cuda warps" -ex "bt" \
      -ex 'info line *$pc' -ex 'x/4i $pc' -ex 'p/x $errorpc' -ex 'info line *$errorpc' > "$d/cuda-gdb.txt" 2>&1
    grep -n -i -E "exception|kernel|^#0|line" "$d/cuda-gdb.txt" | head -12
    xz -T0 -9 -c "$g" > "$d/gpu.nvcudmp.xz"; rm -f "$g"
  done
  [ $c = output-code ] && rm -f $d/model.pt2    # the log is given without its package
  find $d/ext_build -type f ! -name build.ninja -delete 2>/dev/null; rm -rf $d/inductor_cache $d/cwd
  ls -la $d
  tar -C $W -cJf "$OUT/$c.tar.xz" "$c"
done
ls -la "$OUT"
