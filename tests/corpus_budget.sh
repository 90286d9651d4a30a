#!/usr/bin/env bash
# The repository's size budget: every clone, CI run and copy of the tree to a GPU machine (capped at
# 64 MiB) pays for it. Fails when the tracked tree passes 45 MiB or one corpus case passes 3 MiB,
# naming the largest files; a case holds only the evidence it needs (slim cores:
# corpus/generate/slim_core.py, each case's README).
#
#   tests/corpus_budget.sh [SOURCE_DIR]
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"
tree_limit=$((45 << 20))
case_limit=$((3 << 20))

# The tracked files (what a clone holds); without git, every file but the build folders'.
if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
  list_files() { git ls-files -z -- "$@"; }
else
  list_files() { find "${@:-.}" -path ./build -prune -o -path './build-*' -prune -o -type f -print0; }
fi
bytes_of() {  # bytes_of PATH...: the summed size of the listed files under PATH
  list_files "$@" | xargs -0 -r stat -c %s | awk '{ total += $1 } END { print total + 0 }'
}
mib() { awk -v b="$1" 'BEGIN { printf "%.1f MiB", b / 1048576 }'; }

status=0
total=$(bytes_of)
echo "tracked tree: $(mib "$total") (limit $(mib $tree_limit))"
if ((total > tree_limit)); then
  echo "corpus_budget: the tracked tree is $(mib "$total"), over $(mib $tree_limit); the largest files:" >&2
  list_files | xargs -0 -r stat -c '%s %n' | sort -rn | head -5 >&2
  status=1
fi
# A case is a folder of corpus/ with an expected.json; one without is a container of cases
# (corpus/wild and its set-aside folders), each checked on its own.
cases=()
for dir in corpus/*/; do
  if [[ -f $dir/expected.json ]]; then cases+=("$dir"); else
    for sub in "$dir"*/; do [[ -f $sub/expected.json ]] && cases+=("$sub"); done
  fi
done
for case_dir in "${cases[@]}"; do
  size=$(bytes_of "$case_dir")
  if ((size > case_limit)); then
    echo "corpus_budget: ${case_dir%/} is $(mib "$size"), over $(mib $case_limit); its largest files:" >&2
    list_files "$case_dir" | xargs -0 -r stat -c '%s %n' | sort -rn | head -3 >&2
    status=1
  fi
done
exit $status
