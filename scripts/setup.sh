#!/usr/bin/env bash
# Installs the Debian 12 packages the build needs (only those missing, after `apt-get update`), then
# configures and builds build/.
#
#   scripts/setup.sh [--tests] [CMAKE_ARGUMENT...]
#
# --tests also installs what the tests and benchmarks run (scripts/test.sh passes it). Further
# arguments go to the first cmake call (-DENABLE_LIBCLANG=OFF, ...). A new build/ is configured for a user
# (no tests, warnings not errors); an existing one keeps its settings.
set -euo pipefail
cd "$(dirname "$0")/.."

with_tests=false
if [[ ${1:-} == --tests ]]; then
  with_tests=true
  shift
fi

source scripts/packages.sh
packages=("${build_packages[@]}")
if $with_tests; then packages+=("${test_packages[@]}"); fi
install_packages "${packages[@]}"

configure=(-DCMAKE_BUILD_TYPE=Release)
if $with_tests; then
  configure+=(-DENABLE_TESTING=ON -DENABLE_BENCHMARKS=ON -DENABLE_BROWSER_TESTS=ON)
elif [[ ! -f build/CMakeCache.txt ]]; then
  configure+=(-DENABLE_TESTING=OFF)
fi

mkdir -p build
log=build/setup.log
cmake -S . -B build "${configure[@]}" "$@" > "$log" 2>&1 || { cat "$log"; exit 1; }
cmake --build build -j "$(nproc)" >> "$log" 2>&1 || { tail -50 "$log"; exit 1; }
echo "setup: built build/aoti-analyze"
