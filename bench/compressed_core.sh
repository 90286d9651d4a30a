#!/usr/bin/env bash
# The analysis of a compressed core against inflating it: `aoti-analyze` on
# corpus/embedding-device-assert (its package, and its core.xz) against `xz -dc core.xz >/dev/null`,
# paired run by run (one of each, alternating, so that both see the same machine load). Prints the
# median of the per-pair ratios and whether it meets issue 14's target of 0.5: the analysis in at
# most half the time a plain inflation of the core takes.
#
# The corpus core is compressed as `xz -T0 -6` compresses (24 MiB blocks). CORE=path.xz times
# another compression of the same core instead, e.g. one made with
#   xz -dc corpus/embedding-device-assert/core.xz | xz -T0 -6 --block-size=4MiB > core-4m.xz
# and the output names the file that was used.
# Usage: bench/compressed_core.sh BUILD_DIR      (RUNS=N pairs, default 11; CORE=other.xz)
# Prints figures only: the target is not met on this machine yet, so it is no ctest limit.
set -euo pipefail
build=${1:?usage: compressed_core.sh BUILD_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
analyzer=$build/aoti-analyze
case_dir=$root/corpus/embedding-device-assert
core=${CORE:-$case_dir/core.xz}
runs=${RUNS:-11}
target=0.5

# shellcheck source=bench/timing.sh
source "$(dirname "$0")/timing.sh"
inflate() { xz -dc "$core" >/dev/null; }

ratios=()
aoti_total=0
xz_total=0
for ((i = 0; i < runs; i++)); do
  aoti=$(microseconds "$analyzer" --format json "$case_dir/model.pt2" "$core")
  xz_us=$(microseconds inflate)
  aoti_total=$((aoti_total + aoti))
  xz_total=$((xz_total + xz_us))
  ratios+=("$(echo "$aoti / $xz_us" | bc -l)")
done
median=$(printf '%s\n' "${ratios[@]}" | sort -g | sed -n "$((runs / 2 + 1))p")
blocks=$(xz -l --robot "$core" | awk '$1 == "totals" { print $3 }')

printf '%s (%s xz blocks): aoti-analyze %.1f ms, xz -dc %.1f ms (means of %d pairs);' \
  "$core" "$blocks" "$(echo "$aoti_total / $runs / 1000" | bc -l)" \
  "$(echo "$xz_total / $runs / 1000" | bc -l)" "$runs"
if (($(echo "$median <= $target" | bc -l))); then verdict=met; else verdict='not met'; fi
printf ' median ratio %.2f (target %s: %s)\n' "$median" "$target" "$verdict"
