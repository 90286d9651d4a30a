#!/usr/bin/env bash
# Weights must cost nothing: analyzing a package with a 10 GiB weights entry has to take about as
# long as analyzing the same package without it (the ratio must stay under 1.5), because only the
# entries a check needs are ever read.
#
#   bench/package_size.sh BUILD_DIR [PACKAGE]
#
# BUILD_DIR holds make_big_pt2 and aoti-analyze; AOTI_ANALYZE overrides the command timed (it is
# run as `$AOTI_ANALYZE PACKAGE --format json`), RUNS the number of runs (best of).
set -euo pipefail

build_dir=${1:?usage: bench/package_size.sh BUILD_DIR [PACKAGE]}
source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
package=${2:-$source_dir/corpus/healthy-cuda-dynamic/model.pt2}
generator=$build_dir/make_big_pt2
analyze=${AOTI_ANALYZE:-$build_dir/aoti-analyze}
runs=${RUNS:-15}
weight_bytes=$((10 << 30))
max_ratio=1.5
max_disk_kib=$((64 << 10))

for tool in "$generator" "$analyze"; do
  [[ -x $tool ]] || { echo "missing $tool: build it first" >&2; exit 2; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Same file name in both folders, so that both packages get the same root folder and display.
mkdir "$work/without" "$work/with"
"$generator" "$package" "$work/without/model.pt2" 0
"$generator" "$package" "$work/with/model.pt2" "$weight_bytes"

apparent=$(stat -c %s "$work/with/model.pt2")
used_kib=$(du -sk "$work" | cut -f1)
if (( apparent < weight_bytes || used_kib > max_disk_kib )); then
  echo "the weights entry is not sparse: $apparent bytes, $used_kib KiB on disk" >&2
  exit 1
fi

# One run, in nanoseconds. Exit status 1 means findings, not a failure.
time_ns() {
  local start end status=0
  start=$(date +%s%N)
  "$analyze" "$1" --format json >/dev/null || status=$?
  end=$(date +%s%N)
  if (( status > 1 )); then
    echo "$analyze failed on $1 (exit $status)" >&2
    exit 1
  fi
  echo $((end - start))
}

# Best of $runs, the two packages taken in turn so that drift in the machine's load hits both.
without_ns=0
with_ns=0
for ((run = 0; run < runs; run++)); do
  t=$(time_ns "$work/without/model.pt2")
  if (( without_ns == 0 || t < without_ns )); then without_ns=$t; fi
  t=$(time_ns "$work/with/model.pt2")
  if (( with_ns == 0 || t < with_ns )); then with_ns=$t; fi
done
awk -v without="$without_ns" -v with="$with_ns" -v apparent="$apparent" -v used="$used_kib" \
    -v max="$max_ratio" -v runs="$runs" 'BEGIN {
  ratio = with / without
  printf "package without weights:            %8.1f ms (best of %d)\n", without / 1e6, runs
  printf "package with 10 GiB sparse weights: %8.1f ms (best of %d; %.1f GiB apparent, %d KiB on disk)\n",
         with / 1e6, runs, apparent / 2^30, used
  printf "ratio: %.2f (limit %.1f)\n", ratio, max
  exit ratio < max ? 0 : 1
}'
