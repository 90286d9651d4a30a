#!/usr/bin/env bash
# The test command a contributor runs after every change: sets up (packages, including what the
# tests run; build/ with tests and warnings as errors; ccache when installed) and runs the plain
# ctest suite, the slow labelled tests (bench, browser, install, peer) included. About 7 minutes
# from a fresh clone on 2 cores, about 70 seconds after a change to one check. The fast part alone:
#   ctest --test-dir build -j"$(nproc)" -LE 'bench|browser|install|peer'
# CI (.ci/run) runs this, then the sanitizer suite and the fuzz smoke (scripts/sanitize.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests -DWARNINGS_AS_ERRORS=ON
ctest --test-dir build --output-on-failure -j "$(nproc)"
