#!/usr/bin/env bash
# Times a backtrace of each seed core with aoti-analyze (or core_bench until the CLI has
# --backtrace), eu-stack and gdb, in the same run, and compares aoti's peak memory with the
# core's size: the core is mapped, and only what the analysis uses is read.
# Usage: bench/core_analysis.sh BUILD_DIR
set -euo pipefail
build=${1:?usage: core_analysis.sh BUILD_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
if "$build/aoti-analyze" --help 2>&1 | grep -q -- --backtrace; then
  analyze() { "$build/aoti-analyze" --backtrace "$1" "$2"; }
else
  analyze() { "$build/core_bench" "$1" "$2"; }
fi
export -f analyze 2>/dev/null || true
seconds() {  # seconds COMMAND...: wall time of one run, output discarded
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1 || true
  end=$(date +%s.%N)
  echo "$end - $start" | bc -l
}
printf '%-30s %9s %9s %9s %8s %8s %10s %10s\n' case aoti_s eu-stack_s gdb_s eu/aoti gdb/aoti core_MiB aoti_RSS_MiB
for case_dir in "$root"/corpus/*/; do
  [[ -f $case_dir/core.xz ]] || continue
  name=$(basename "$case_dir")
  core=$scratch/$name.core
  xz -dc "$case_dir/core.xz" >"$core"
  package=$case_dir/model.pt2
  aoti=$(seconds analyze "$core" "$package")
  eu=$(seconds eu-stack --core "$core")
  gdb_time=$(seconds gdb -batch -nx -ex "thread apply all bt" -c "$core")
  rss_kb=$( { /usr/bin/time -v bash -c "$(declare -f analyze); build='$build'; analyze '$core' '$package'" >/dev/null; } 2>&1 |
            awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}')
  core_mib=$(( $(stat -c %s "$core") >> 20 ))
  printf '%-30s %9.3f %9.3f %9.3f %8.2f %8.2f %10d %10d\n' "$name" "$aoti" "$eu" "$gdb_time" \
    "$(echo "$eu / $aoti" | bc -l)" "$(echo "$gdb_time / $aoti" | bc -l)" "$core_mib" $((rss_kb / 1024))
  rm -f "$core"
done
