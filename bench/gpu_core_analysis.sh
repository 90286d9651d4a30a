#!/usr/bin/env bash
# Times aoti-analyze on each corpus GPU core dump next to the CPU core of the same case, in the same
# run: the GPU core plain (mapped; only its tables and the faulting kernel's cubin are read) and as
# shipped (xz or zstd, decoded to a private file first), the CPU core plain, and `cat` of the plain
# GPU core as the cost of touching every byte once. Peak memory is compared with the dump's size.
# Usage: bench/gpu_core_analysis.sh BUILD_DIR
set -euo pipefail
build=${1:?usage: gpu_core_analysis.sh BUILD_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
runs=${RUNS:-3}
# shellcheck source=bench/timing.sh
source "$(dirname "$0")/timing.sh"
rss_mib() {  # rss_mib COMMAND...: peak resident memory in MiB
  /usr/bin/time -f '%M' -o "$scratch/rss" "$@" >/dev/null 2>&1 || true
  echo $(($(tail -1 "$scratch/rss") / 1024))
}
printf '%-34s %9s %9s %9s %9s %9s %9s %9s\n' case gpu_s gpu_xz_s cpu_s gpu/cpu cat_s gpu_MiB rss_MiB
for case_dir in "$root"/corpus/*/; do
  shipped=$(ls "$case_dir"gpu.nvcudmp* 2>/dev/null | head -1 || true)
  [[ -n $shipped ]] || continue
  name=$(basename "$case_dir")
  gpu=$scratch/$name.nvcudmp
  case $shipped in
    *.xz) xz -dc "$shipped" >"$gpu" ;;
    *.zst) zstd -qdc "$shipped" >"$gpu" ;;
    *) cp "$shipped" "$gpu" ;;
  esac
  gpu_s=$(best_seconds "$build/aoti-analyze" "$gpu")
  shipped_s=$(best_seconds "$build/aoti-analyze" "$shipped")
  cat_s=$(best_seconds cat "$gpu")
  cpu_s=nan ratio=nan
  if [[ -f $case_dir/core.xz ]]; then
    cpu=$scratch/$name.core
    xz -dc "$case_dir/core.xz" >"$cpu"
    cpu_s=$(best_seconds "$build/aoti-analyze" "$cpu")
    ratio=$(echo "$gpu_s / $cpu_s" | bc -l)
    rm -f "$cpu"
  fi
  printf '%-34s %9.3f %9.3f %9s %9s %9.3f %9d %9d\n' "$name" "$gpu_s" "$shipped_s" \
    "$(printf '%.3f' "$cpu_s" 2>/dev/null || echo -)" "$(printf '%.2f' "$ratio" 2>/dev/null || echo -)" \
    "$cat_s" $(( $(stat -c %s "$gpu") >> 20 )) "$(rss_mib "$build/aoti-analyze" "$gpu")"
  rm -f "$gpu"
done
