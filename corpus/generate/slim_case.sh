#!/bin/sh
# Slims the cores of one corpus case (core.xz, gpu.nvcudmp.xz) with min_core.py / min_gpucore.py,
# checked by same_report.py against ANALYZER's output on the case as it was, and writes them back
# with xz -9e, in as many blocks as before (a single-block core.xz gets a health note saying it was
# inflated on one thread, so the block count is part of the output kept identical).
# Usage: slim_case.sh [--zero] CASE-DIR ANALYZER [WORK-DIR]   (--zero: see min_core.py)
set -eu
zero=""; [ "$1" = --zero ] && { zero=--zero; shift; }
case_dir=$(cd "$1" && pwd); analyzer=$(realpath "$2"); work=${3:-/tmp/slim_case.$$}
here=$(cd "$(dirname "$0")" && pwd)
name=$(basename "$case_dir")
w="$work/$name"; mkdir -p "$w/plain" "$w/xz" "$w/base" "$w/base-xz"
(cd "$case_dir" && git ls-files | while read -r f; do
  mkdir -p "$w/xz/$(dirname "$f")" "$w/plain/$(dirname "$f")"; cp "$f" "$w/xz/$f"
  case "$f" in *.xz) xz -dc "$f" > "$w/plain/${f%.xz}" ;; *) cp "$f" "$w/plain/$f" ;; esac; done)
python3 "$here/same_report.py" --record "$analyzer" "$w/xz" "$w/base-xz"
python3 "$here/same_report.py" --record "$analyzer" "$w/plain" "$w/base"
oracle="python3 $here/same_report.py $analyzer $w/plain $w/base"
for f in core gpu.nvcudmp; do
  [ -f "$w/plain/$f" ] || continue
  cp "$w/plain/$f" "$w/$f.orig"
  if [ $f = core ]; then set -- min_core.py $zero; else set -- min_gpucore.py; fi
  python3 "$here/$@" "$w/$f.orig" "$w/plain/$f" $oracle
done
for f in core gpu.nvcudmp; do
  [ -f "$w/plain/$f" ] || continue
  size=$(stat -c %s "$w/plain/$f")
  blocks=$(xz -lv --robot "$case_dir/$f.xz" | awk '$1 == "stream" {print $3}')
  bs=$(( (size / (blocks > 1 ? 2 : 1) + 65535) / 65536 * 65536 ))
  xz -9e -T1 --block-size=$bs -c "$w/plain/$f" > "$w/xz/$f.xz"
done
python3 "$here/same_report.py" "$analyzer" "$w/xz" "$w/base-xz" || { echo "$name: the recompressed case reads differently" >&2; exit 1; }
for f in core gpu.nvcudmp; do [ -f "$w/xz/$f.xz" ] && cp "$w/xz/$f.xz" "$case_dir/$f.xz"; done
echo "$name: done; sizes in $w"
