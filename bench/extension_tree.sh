#!/usr/bin/env bash
# Times aoti-analyze on a whole extension tree: the `before/` files of every upstream fix set in
# ../shared/peer-inputs/sources (FBGEMM and flash-attention, C++ and Python, about 6,000 lines),
# copied into one folder as a user would point the tool at their extension. Next to it, in the same
# run: `wc -l` of the tree (the cost of reading every byte once) and the tree's single largest C++
# file alone (the floor when files are read in parallel). Fails when the tree takes LIMIT_SECONDS
# (2) or more. Skipped, saying so, when ../shared is absent.
# Usage: [EXTENSION_TREE=/path/to/fbgemm_gpu] bench/extension_tree.sh BUILD_DIR
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

# A whole cloned tree (issue 31: FBGEMM's fbgemm_gpu/ at 71d6f8b229), when EXTENSION_TREE names
# one: wall seconds (limit TREE_LIMIT_SECONDS, 20), peak memory (TREE_LIMIT_MIB, 1024) and the
# lines of the default text report's Diagnostics section (TREE_LIMIT_DIAGNOSTICS, 50).
if [[ -n ${EXTENSION_TREE:-} ]]; then
  report=$scratch/tree_report.txt
  /usr/bin/time -f '%e %M' -o "$scratch/tree_time" "$build/aoti-analyze" "$EXTENSION_TREE" \
    >"$report" 2>/dev/null || true
  read -r big_s big_kib <"$scratch/tree_time"
  diagnostic_lines=$(sed -n '/^Diagnostics$/,$p' "$report" | tail -n +2 | wc -l)
  tree_files=$(find "$EXTENSION_TREE" -type f | wc -l)
  printf 'extension_tree: %s (%d files): %.1f s, %d MiB, %d diagnostic lines, %d report lines\n' \
    "$EXTENSION_TREE" "$tree_files" "$big_s" $((big_kib / 1024)) "$diagnostic_lines" \
    "$(wc -l <"$report")"
  if (($(echo "$big_s > ${TREE_LIMIT_SECONDS:-20}" | bc -l))) ||
    ((big_kib / 1024 > ${TREE_LIMIT_MIB:-1024})) ||
    ((diagnostic_lines > ${TREE_LIMIT_DIAGNOSTICS:-50})); then
    echo "extension_tree: FAIL: $EXTENSION_TREE over its limits" >&2
    exit 1
  fi
else
  echo "extension_tree: whole tree SKIPPED: set EXTENSION_TREE to a cloned extension tree"
fi
