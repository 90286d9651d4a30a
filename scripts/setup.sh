#!/usr/bin/env bash
# Installs the Debian packages the build needs (only when one is missing), then builds build/.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  g++ cmake make pkg-config
  libzip-dev zlib1g-dev nlohmann-json3-dev libboost-program-options-dev doctest-dev libexpected-dev libfmt-dev
  libdw-dev libelf-dev liblzma-dev libzstd-dev libclang-19-dev
  libsqlite3-dev
  xz-utils zstd unzip
  # tests and benchmarks: the HTML report in a real browser; timings against eu-stack and gdb
  chromium time elfutils gdb bc
  # tests: every Python snippet a report prints must parse
  python3
)

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

mkdir -p build
log=build/setup.log
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release > "$log" 2>&1 || { cat "$log"; exit 1; }
cmake --build build -j "$(nproc)" >> "$log" 2>&1 || { tail -50 "$log"; exit 1; }
echo "setup: built build/aoti-analyze"
