#!/usr/bin/env bash
# A nightly scan must keep up with a team's build output: scans COPIES package copies (made from
# the seed packages; real copies, since the analyzer reads a file named twice, a hard link too,
# once) and prints packages per second and peak
# memory, next to a run over a quarter as many copies in the same run — memory must stay flat.
# Baseline, in the same run: `cat` of every package of the tree (reading each byte once); the
# ratio is its time over the scan's (above 1: the scan reads less than the packages hold).
#
#   bench/scan_speed.sh BUILD_DIR [COPIES]
set -euo pipefail

build_dir=${1:?usage: bench/scan_speed.sh BUILD_DIR [COPIES]}
copies=${2:-1000}
source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
analyze=$build_dir/aoti-analyze
min_rate=200
[[ -x $analyze ]] || { echo "missing $analyze: build it first" >&2; exit 2; }
command -v /usr/bin/time > /dev/null || { echo "missing /usr/bin/time (Debian package time)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
packages=("$source_dir"/corpus/*/model.pt2)

make_tree() {  # make_tree DIR COUNT
  for ((i = 0; i < $2; i++)); do
    mkdir -p "$1/build$i"
    cp "${packages[i % ${#packages[@]}]}" "$1/build$i/model.pt2"
  done
}

measure() {  # measure DIR COUNT -> "seconds kib"
  /usr/bin/time -f "%e %M" -o "$work/time" "$analyze" scan "$1" --format jsonl -o "$work/out.jsonl" 2> /dev/null
  local lines
  lines=$(wc -l < "$work/out.jsonl")
  (( lines == $2 )) || { echo "scanned $lines packages, expected $2" >&2; exit 1; }
  cat "$work/time"
}

small=$((copies / 4))
make_tree "$work/small" "$small"
make_tree "$work/large" "$copies"
read -r small_s small_kib < <(measure "$work/small" "$small")
read -r large_s large_kib < <(measure "$work/large" "$copies")
# shellcheck source=bench/timing.sh
source "$source_dir/bench/timing.sh"
cat_all() { find "$work/large" -name model.pt2 -exec cat {} + > /dev/null; }
runs=1 best_seconds cat_all > /dev/null  # the same page-cache state for both
cat_s=$(runs=3 best_seconds cat_all)
awk -v n="$copies" -v s="$large_s" -v kib="$large_kib" -v sn="$small" -v ss="$small_s" -v skib="$small_kib" \
    -v min="$min_rate" -v cores="$(nproc)" -v cat_s="$cat_s" 'BEGIN {
  rate = (s > 0 ? n / s : n * 100)
  printf "scan of %5d packages: %6.2f s, %7.0f packages/s, peak %6.1f MiB (%d cores)\n", sn, ss, (ss > 0 ? sn / ss : sn * 100), skib / 1024, cores
  printf "scan of %5d packages: %6.2f s, %7.0f packages/s, peak %6.1f MiB\n", n, s, rate, kib / 1024
  printf "baseline: cat of the %d packages %.2f s; ratio cat/scan %.2f\n", n, cat_s, (s > 0 ? cat_s / s : 0)
  printf "memory ratio (%d vs %d packages): %.2f; rate limit %d packages/s\n", n, sn, kib / skib, min
  exit (rate > min && kib / skib < 2) ? 0 : 1
}'
