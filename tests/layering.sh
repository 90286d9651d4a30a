#!/usr/bin/env bash
# The layers of ARCHITECTURE.md, from the bottom: util/ -> torch/ -> model/ -> parsers/, checks/ ->
# analyzer/. A file may include its own layer or one below it; this fails, naming file:line, for every
# #include "..." that points upwards or sideways between parsers/ and checks/.
#
#   tests/layering.sh [SOURCE_DIR]
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"

status=0
# forbid FOLDER INCLUDED...: no file under FOLDER includes a header under any INCLUDED folder.
forbid() {
  local folder=$1
  shift
  [[ -d $folder ]] || return 0
  local pattern
  pattern="^[[:space:]]*#[[:space:]]*include[[:space:]]*\"($(IFS='|'; echo "$*"))/"
  local hits
  if hits=$(grep -rnE --include='*.hpp' --include='*.cpp' --include='*.h' "$pattern" "$folder"); then
    echo "layering: $folder/ may not include $(printf '%s/ ' "$@"):" >&2
    echo "$hits" | sed 's/^/  /' >&2
    status=1
  fi
}

forbid util torch model parsers checks analyzer
forbid torch model parsers checks analyzer
forbid model parsers checks analyzer
forbid parsers checks analyzer
forbid checks parsers analyzer

if ((status == 0)); then echo "layering: no include points upwards"; fi
exit $status
