#!/usr/bin/env bash
# Installs the Debian 12 packages the build needs (only those missing, after `apt-get update`), then
# configures and builds build/.
#
#   scripts/setup.sh [--tests] [CMAKE_ARGUMENT...]
#
# --tests also installs what the tests and benchmarks run (scripts/test.sh passes it). Further
# arguments go to the first cmake call (-DENABLE_ASAN=ON, ...). A new build/ is configured for a user
# (no tests, warnings not errors); an existing one keeps its settings.
set -euo pipefail
cd "$(dirname "$0")/.."

with_tests=false
if [[ ${1:-} == --tests ]]; then
  with_tests=true
  shift
fi

build_packages=(
  g++ cmake make pkg-config
  libzip-dev nlohmann-json3-dev libboost-program-options-dev libexpected-dev libfmt-dev
  libdw-dev libelf-dev liblzma-dev libzstd-dev zlib1g-dev libclang-19-dev
  libsqlite3-dev
  # the man page, generated from --help
  help2man
)
test_packages=(
  doctest-dev
  # tests: recompressing cores; every Python snippet a report prints must parse
  xz-utils zstd python3
  # tests: the HTML reports in a real browser; gdb's frames against ours
  chromium gdb
  # tests: cpack -G DEB computes the package's Depends: with dpkg-shlibdeps
  dpkg-dev
  # benchmarks: timings against eu-stack and gdb
  elfutils time bc
  # the format and check_format targets
  clang-format-19
)
packages=("${build_packages[@]}")
if $with_tests; then packages+=("${test_packages[@]}"); fi

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

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
