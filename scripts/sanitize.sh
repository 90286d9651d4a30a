#!/usr/bin/env bash
# The whole ctest suite under AddressSanitizer + UndefinedBehaviorSanitizer, then each fuzz target
# for a short run on its seeds, so that a regression a fuzzer once found fails here. Builds
# build-sanitize/ with clang 19 (-DAOTI_SANITIZE=address,undefined -DAOTI_FUZZ=ON). CI (.ci/run)
# runs it after scripts/test.sh, the ordinary suite; about 18 minutes on 2 cores.
#
#   scripts/sanitize.sh [--fuzz-seconds N]     N: each target's smoke run (default 60; 0 skips it)
set -euo pipefail
cd "$(dirname "$0")/.."

fuzz_seconds=60
if [[ ${1:-} == --fuzz-seconds ]]; then
  fuzz_seconds=$2
  shift 2
fi

source scripts/packages.sh
install_packages "${build_packages[@]}" "${test_packages[@]}" "${sanitize_packages[@]}"

# -O1: the sanitizers' usual level, a third of -O2's build time here and fast enough to run the suite.
# Benchmarks are left out: their limits are for the product build.
mkdir -p build-sanitize
log=build-sanitize/setup.log
cmake -S . -B build-sanitize -DCMAKE_CXX_COMPILER=clang++-19 -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" -DAOTI_SANITIZE=address,undefined -DAOTI_FUZZ=ON \
  -DENABLE_TESTING=ON -DENABLE_BROWSER_TESTS=ON "$@" > "$log" 2>&1 || { cat "$log"; exit 1; }
cmake --build build-sanitize -j "$(nproc)" >> "$log" 2>&1 || { tail -80 "$log"; exit 1; }
echo "sanitize: built build-sanitize/"

source scripts/sanitizer_options.sh
ctest --test-dir build-sanitize --output-on-failure -j "$(nproc)"

if ((fuzz_seconds > 0)); then
  scripts/fuzz.sh --build build-sanitize --seconds "$fuzz_seconds"
fi
