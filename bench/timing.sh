# Sourced by the bench/*.sh scripts: how they time a command.
# best_seconds COMMAND...: the best wall time of $runs runs (default 3), output discarded.
best_seconds() {
  local best=999999 start end t i
  for ((i = 0; i < ${runs:-3}; i++)); do
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true
    end=$(date +%s.%N)
    t=$(echo "$end - $start" | bc -l)
    best=$(echo "if ($t < $best) $t else $best" | bc -l)
  done
  echo "$best"
}

# microseconds COMMAND...: the wall time of one run in microseconds, output discarded (the paired
# benchmarks alternate one run of each command).
microseconds() {
  local start end
  start=$(date +%s%N)
  "$@" >/dev/null 2>&1 || true
  end=$(date +%s%N)
  echo $(((end - start) / 1000))
}
