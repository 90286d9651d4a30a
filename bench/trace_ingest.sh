#!/usr/bin/env bash
# Trace ingest benchmark: builds 256 MiB and 1 GiB TORCH_TRACE files by concatenating the seed
# traces (in a private temp dir), then prints read_trace's throughput next to `wc -l` on the same
# file, their ratio, and the reader's peak memory at both sizes (it must stay flat).
# Usage: bench/trace_ingest.sh BUILD_DIR   (BUILD_DIR holds trace_bench)
set -euo pipefail
build_dir=${1:?usage: trace_ingest.sh BUILD_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
bench="$build_dir/trace_bench"
[[ -x $bench ]] || { echo "missing $bench (cmake --build $build_dir --target trace_bench)" >&2; exit 2; }
if [[ ! -x /usr/bin/time ]]; then
  echo "/usr/bin/time missing: apt-get install -y time" >&2
  exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

seeds=("$root"/corpus/*/trace/dedicated_log_torch_trace_*.log)
cat "${seeds[@]}" > "$work/round.log"
build() {  # $1: target size in bytes, $2: output file
  local target=$1 out=$2
  : > "$out"
  while (( $(stat -c %s "$out") < target )); do
    # double the file until the next doubling would pass the target, then top it up by rounds
    if (( $(stat -c %s "$out") > 0 && 2 * $(stat -c %s "$out") <= target )); then
      cat "$out" "$out" > "$out.tmp" && mv "$out.tmp" "$out"
    else
      cat "$work/round.log" >> "$out"
    fi
  done
}

now() { date +%s.%N; }
for size_mib in 256 1024; do
  file="$work/trace_${size_mib}.log"
  build $((size_mib * 1024 * 1024)) "$file"
  bytes=$(stat -c %s "$file")
  cat "$file" > /dev/null  # same page-cache state for both readers

  start=$(now); wc -l < "$file" > /dev/null; end=$(now)
  wc_seconds=$(echo "$end - $start" | bc -l)

  /usr/bin/time -v "$bench" "$file" > "$work/out.txt" 2> "$work/time.txt"
  reader_line=$(cat "$work/out.txt")
  reader_mbs=$(sed -n 's/.*MB\/s=\([0-9.]*\).*/\1/p' "$work/out.txt")
  peak_kib=$(sed -n 's/.*Maximum resident set size (kbytes): \([0-9]*\).*/\1/p' "$work/time.txt")
  wc_mbs=$(echo "$bytes / 1000000 / $wc_seconds" | bc -l)
  printf '%5d MiB: read_trace %8.1f MB/s | wc -l %8.1f MB/s | ratio wc/read %5.1fx | peak RSS %6.1f MiB\n' \
    "$size_mib" "$reader_mbs" "$wc_mbs" "$(echo "$wc_mbs / $reader_mbs" | bc -l)" "$(echo "$peak_kib / 1024" | bc -l)"
  echo "         ($reader_line)"
  eval "peak_$size_mib=$peak_kib"
done
# Flat memory: the 1 GiB run may not need more than the 256 MiB run plus 16 MiB of slack.
if (( peak_1024 > peak_256 + 16384 )); then
  echo "FAIL: peak memory grows with the trace size (${peak_256} KiB -> ${peak_1024} KiB)" >&2
  exit 1
fi
echo "peak memory flat: ${peak_256} KiB at 256 MiB, ${peak_1024} KiB at 1 GiB"
