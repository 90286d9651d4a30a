#!/usr/bin/env bash
# Sets up (packages, including what the tests run, + build with warnings as errors), then runs every
# test through ctest: the browser, install and bench tests included.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests -DWARNINGS_AS_ERRORS=ON
ctest --test-dir build --output-on-failure -j "$(nproc)"
