#!/usr/bin/env bash
# What a run costs before it reads much: peak memory of `aoti-analyze --version` and of a
# package-only analysis, and the wall time of analyzing corpus/const-cpu-buffer/model.pt2 against
# `unzip -l` on the same file, paired run by run (one of each, alternating, so that both see the same
# machine load). Prints the median of the per-pair ratios; fails when a limit is passed.
# Usage: bench/startup.sh BUILD_DIR      (RUNS=N pairs, default 21)
set -euo pipefail
build=${1:?usage: startup.sh BUILD_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
analyzer=$build/aoti-analyze
package=$root/corpus/const-cpu-buffer/model.pt2
runs=${RUNS:-21}
max_rss_mib=20
max_ratio=3

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
peak_kib() {  # peak_kib COMMAND...: the command's maximum resident set size in KiB, output discarded
  /usr/bin/time -f '%M' -o "$scratch/rss" "$@" >/dev/null 2>&1 || true
  cat "$scratch/rss"
}
# shellcheck source=bench/timing.sh
source "$(dirname "$0")/timing.sh"

version_kib=$(peak_kib "$analyzer" --version)
package_kib=$(peak_kib "$analyzer" "$package")

ratios=()
aoti_total=0
unzip_total=0
for ((i = 0; i < runs; i++)); do
  aoti=$(microseconds "$analyzer" "$package")
  unzip_us=$(microseconds unzip -l "$package")
  aoti_total=$((aoti_total + aoti))
  unzip_total=$((unzip_total + unzip_us))
  ratios+=("$(echo "$aoti / $unzip_us" | bc -l)")
done
median=$(printf '%s\n' "${ratios[@]}" | sort -g | sed -n "$((runs / 2 + 1))p")

printf 'peak memory: --version %.1f MiB, package-only analysis %.1f MiB (limit %d MiB)\n' \
  "$(echo "$version_kib / 1024" | bc -l)" "$(echo "$package_kib / 1024" | bc -l)" "$max_rss_mib"
printf 'const-cpu-buffer/model.pt2: aoti-analyze %.1f ms, unzip -l %.1f ms (means of %d pairs);' \
  "$(echo "$aoti_total / $runs / 1000" | bc -l)" "$(echo "$unzip_total / $runs / 1000" | bc -l)" "$runs"
printf ' median ratio %.2f (limit %d)\n' "$median" "$max_ratio"

status=0
for kib in "$version_kib" "$package_kib"; do
  if ((kib > max_rss_mib * 1024)); then
    echo "startup.sh: peak memory $((kib / 1024)) MiB is over $max_rss_mib MiB" >&2
    status=1
  fi
done
if (($(echo "$median > $max_ratio" | bc -l))); then
  echo "startup.sh: aoti-analyze takes $median times as long as unzip -l (limit $max_ratio)" >&2
  status=1
fi
exit $status
