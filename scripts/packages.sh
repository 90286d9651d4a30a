# The Debian 12 packages of each kind of build, and install_packages: installs those of its arguments
# that are missing (after `apt-get update`), with sudo when not root. Sourced by setup.sh and
# sanitize.sh.

build_packages=(
  g++ cmake make pkg-config
  libzip-dev nlohmann-json3-dev libboost-program-options-dev libexpected-dev libfmt-dev
  libdw-dev libelf-dev liblzma-dev libzstd-dev zlib1g-dev libclang-19-dev
  libsqlite3-dev
  # the executable links libdw's archive (cmake/Dependencies.cmake), which needs libbz2's: libdw-dev
  # does not bring it
  libbz2-dev
  # the executable's allocator (cmake/Dependencies.cmake says why)
  libjemalloc-dev
  # parsers/trace: TORCH_TRACE record headers
  libsimdjson-dev
  # the man page, generated from --help
  help2man
)
test_packages=(
  doctest-dev
  # rebuilds compile only what changed, also in a fresh clone (CMakeLists.txt)
  ccache
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
# scripts/sanitize.sh: clang with its sanitizer and libFuzzer runtimes, llvm-symbolizer for the reports
sanitize_packages=(clang-19 libclang-rt-19-dev llvm-19)

install_packages() {
  local missing=() package
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  done
  ((${#missing[@]})) || return 0
  echo "setup: installing ${missing[*]}"
  local sudo_cmd=()
  [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
}
