#!/usr/bin/env bash
# Runs the libFuzzer targets of a build configured with -DAOTI_FUZZ=ON (scripts/sanitize.sh makes
# build-sanitize/ so), as many at once as there are cores.
#
#   scripts/fuzz.sh [--build DIR] [--seconds N] [TARGET...]     (TARGET: zip, pt2, core, ...; default all)
#
# Each target runs N seconds (default 60) over its growing corpus DIR/fuzz/corpus/<target> and its
# seeds (fuzz/make_seeds.py, from corpus/ and ../shared), with the dictionary fuzz/dict/<target>.dict.
# An input that crashes, leaks, trips a sanitizer, runs over 10 s or over 2 GiB lands in
# DIR/fuzz/findings/<target>/ and fails the run. Prints each target's executions, exec/s and coverage.
set -euo pipefail
cd "$(dirname "$0")/.."

build=build-sanitize
seconds=60
while [[ ${1:-} == --* ]]; do
  case $1 in
    --build) build=$2 ;;
    --seconds) seconds=$2 ;;
    *) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift 2
done
targets=("$@")
if ((${#targets[@]} == 0)); then
  for binary in "$build"/fuzz_*; do targets+=("${binary##*/fuzz_}"); done
fi

source scripts/sanitizer_options.sh
work=$build/fuzz
rm -rf "$work/seeds"
python3 fuzz/make_seeds.py "$work/seeds" > /dev/null

run_target() {
  local target=$1
  local corpus=$work/corpus/$target findings=$work/findings/$target log=$work/logs/$target.log
  mkdir -p "$corpus" "$findings" "$work/logs" "$work/seeds/$target"
  local dict=()
  [[ -f fuzz/dict/$target.dict ]] && dict=(-dict="fuzz/dict/$target.dict")
  "$build/fuzz_$target" "$corpus" "$work/seeds/$target" "${dict[@]}" -max_total_time="$seconds" \
    -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$findings/" > "$log" 2>&1
}

status=0
pids=()
for target in "${targets[@]}"; do
  while (($(jobs -rp | wc -l) >= $(nproc))); do wait -n || true; done
  run_target "$target" &
  pids+=($!)
done
for i in "${!targets[@]}"; do
  target=${targets[$i]}
  log=$work/logs/$target.log
  if wait "${pids[$i]}"; then result=clean; else result="FOUND: $(ls "$work/findings/$target" | head -3 | tr '\n' ' ')"; status=1; fi
  runs=$(sed -n 's/^stat::number_of_executed_units: //p' "$log")
  speed=$(sed -n 's/^stat::average_exec_per_sec: //p' "$log")
  coverage=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1)
  printf 'fuzz %-14s %9s runs %6s exec/s  %-22s %s\n' "$target" "${runs:-?}" "${speed:-?}" "${coverage:-}" "$result"
  [[ $result == clean ]] || tail -40 "$log"
done
exit $status
