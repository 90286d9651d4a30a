#!/usr/bin/env bash
# Trace ingest benchmark (issue 14): builds 256 MiB and 1 GiB TORCH_TRACE files by concatenating the
# seed traces (in a private temp dir), then times `aoti-analyze --summary` and `wc -l` on the same
# file, run by run in pairs, and prints the throughput ratio (median of RUNS pairs) and the peak
# resident memory of aoti-analyze at both sizes, against the issue's targets: at least 0.25x the
# throughput of `wc -l` on 1 GiB, and peak memory flat (1 GiB within 16 MiB of 256 MiB).
# Exits 1 only when the output of --summary is empty or the memory grows with the size; the speed
# target is printed, met or not.
# Usage: bench/trace_ingest.sh BUILD_DIR   (BUILD_DIR holds aoti-analyze)   RUNS=3 by default
set -euo pipefail
build_dir=${1:?usage: trace_ingest.sh BUILD_DIR}
runs=${RUNS:-3}
root=$(cd "$(dirname "$0")/.." && pwd)
tool="$build_dir/aoti-analyze"
[[ -x $tool ]] || { echo "missing $tool (cmake --build $build_dir --target aoti-analyze)" >&2; exit 2; }
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
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "aoti-analyze --summary vs wc -l, median of $runs paired runs ($(nproc) cores)"
for size_mib in 256 1024; do
  file="$work/trace_${size_mib}.log"
  build $((size_mib * 1024 * 1024)) "$file"
  bytes=$(stat -c %s "$file")
  cat "$file" > /dev/null  # the same page-cache state for both
  : > "$work/ratios" ; : > "$work/tool_s"; : > "$work/wc_s"; : > "$work/peaks"
  for ((run = 0; run < runs; ++run)); do
    start=$(now); wc -l < "$file" > /dev/null; end=$(now)
    wc_s=$(echo "$end - $start" | bc -l)
    start=$(now)
    /usr/bin/time -f %M -o "$work/peak" "$tool" --summary "$file" > "$work/summary.txt"
    end=$(now)
    tool_s=$(echo "$end - $start" | bc -l)
    [[ -s $work/summary.txt ]] || { echo "FAIL: empty summary for $file" >&2; exit 1; }
    echo "$wc_s / $tool_s" | bc -l >> "$work/ratios"
    echo "$tool_s" >> "$work/tool_s"
    echo "$wc_s" >> "$work/wc_s"
    cat "$work/peak" >> "$work/peaks"
  done
  ratio=$(median < "$work/ratios")
  tool_s=$(median < "$work/tool_s")
  wc_s=$(median < "$work/wc_s")
  peak_kib=$(sort -n "$work/peaks" | tail -1)
  printf '%5d MiB: aoti-analyze --summary %6.3f s %8.1f MB/s | wc -l %6.3f s %8.1f MB/s | ratio %.3fx | peak RSS %6.1f MiB\n' \
    "$size_mib" "$tool_s" "$(echo "$bytes / 1000000 / $tool_s" | bc -l)" \
    "$wc_s" "$(echo "$bytes / 1000000 / $wc_s" | bc -l)" "$ratio" "$(echo "$peak_kib / 1024" | bc -l)"
  eval "peak_$size_mib=$peak_kib"
  eval "ratio_$size_mib=$ratio"
done

met() { if [[ $1 == 1 ]]; then echo "met"; else echo "NOT met"; fi; }
speed_ok=$(echo "$ratio_1024 >= 0.25" | bc -l)
memory_ok=$(( peak_1024 <= peak_256 + 16384 ? 1 : 0 ))
echo "target (issue 14): 1 GiB at >= 0.25x wc -l throughput: $(printf '%.3f' "$ratio_1024")x, $(met "$speed_ok")"
echo "target (issue 14): peak RSS flat (1 GiB within 16 MiB of 256 MiB): ${peak_256} KiB -> ${peak_1024} KiB, $(met "$memory_ok")"
(( memory_ok )) || exit 1
