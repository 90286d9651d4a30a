#!/usr/bin/env bash
# Formats every C++ source the repository tracks with .clang-format, or with --check only reports
# the files that differ (exit 1). The `format` and `check_format` build targets run it.
#
#   scripts/format.sh CLANG_FORMAT [--check]
set -euo pipefail
clang_format=${1:?usage: scripts/format.sh CLANG_FORMAT [--check]}
cd "$(dirname "$0")/.."

# Test inputs (tests/data/, corpus/) are fixtures whose exact bytes the tests depend on.
mapfile -t files < <(git ls-files -- '*.cpp' '*.hpp' ':!:tests/data/' ':!:corpus/')
if [[ ${2:-} == --check ]]; then
  exec "$clang_format" --dry-run --Werror "${files[@]}"
fi
exec "$clang_format" -i "${files[@]}"
