#!/usr/bin/env bash
# Times aoti-analyze on a whole extension tree: the `before/` files of every upstream fix set in
# ../shared/peer-inputs/sources (FBGEMM and flash-attention, C++ and Python, about 6,000 lines),
# copied into one folder as a user would point the tool at their extension. Next to it, in the same
# run: `wc -l` of the tree (the cost of reading every byte once) and the tree's single largest C++
# file alone (the floor when files are read in parallel). Fails when the tree takes LIMIT_SECONDS
# (2) or more. Skipped, saying so, when ../shared is absent.
# Usage: bench/extension_tree.sh BUILD_DIR
set -euo pipefail
build=${1:?usage: extension_tree.sh BUILD_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
sources=$root/../shared/peer-inputs/sources
limit=${LIMIT_SECONDS:-2}
runs=${RUNS:-3}
if [[ ! -d $sources ]]; then
  echo "extension_tree: SKIPPED: $sources is absent"
  exit 0
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
tree=$scratch/ext
for before in "$sources"/*/before; do
  set_name=$(basename "$(dirname "$before")")
  mkdir -p "$tree/$set_name"
  cp "$before"/* "$tree/$set_name/"
done
# shellcheck source=bench/timing.sh
source "$(dirname "$0")/timing.sh"
files=$(find "$tree" -type f | wc -l)
lines=$(find "$tree" -type f -exec cat {} + | wc -l)
largest=$(find "$tree" -type f -name '*.cpp' -exec wc -l {} + | grep -v ' total$' | sort -rn | head -1 | awk '{print $2}')
tree_s=$(best_seconds "$build/aoti-analyze" "$tree")
wc_s=$(best_seconds wc -l $(find "$tree" -type f))
one_s=$(best_seconds "$build/aoti-analyze" "$largest")
printf 'extension_tree: %d files, %d lines, %d cores\n' "$files" "$lines" "$(nproc)"
printf '%-28s %9s %9s\n' what seconds ratio
printf '%-28s %9.3f %9s\n' 'wc -l (baseline)' "$wc_s" 1
printf '%-28s %9.3f %9.0f\n' 'aoti-analyze TREE' "$tree_s" "$(echo "$tree_s / $wc_s" | bc -l)"
printf '%-28s %9.3f %9.0f\n' "largest C++ file alone" "$one_s" "$(echo "$one_s / $wc_s" | bc -l)"
printf '%-28s %9.0f\n' 'lines per second' "$(echo "$lines / $tree_s" | bc -l)"
if (($(echo "$tree_s >= $limit" | bc -l))); then
  echo "extension_tree: FAIL: ${tree_s}s >= ${limit}s" >&2
  exit 1
fi
