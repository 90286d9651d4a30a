#!/usr/bin/env bash
# Sets up (packages, including what the tests run, + build with warnings as errors), then runs every
# test through ctest: the browser, install and bench tests included. Then the same suite again under
# AddressSanitizer + UndefinedBehaviorSanitizer, and each fuzz target for a minute on its seeds
# (scripts/sanitize.sh, build-sanitize/).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests -DWARNINGS_AS_ERRORS=ON
ctest --test-dir build --output-on-failure -j "$(nproc)"
scripts/sanitize.sh
