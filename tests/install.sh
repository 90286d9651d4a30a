#!/usr/bin/env bash
# What a user installs works: `cmake --install` into a staging prefix, and the .deb that `cpack -G DEB`
# builds, unpacked with `dpkg-deb -x` into a clean folder, each give an aoti-analyze whose report on
# corpus/embedding-device-assert is byte-identical (and exits the same) to the build tree's binary's.
# Also checks that each holds the check docs, the README and (when help2man built it) the man page,
# and that the package's Depends: was computed (dpkg-shlibdeps).
#
#   tests/install.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
source_dir=$(cd "${1:?usage: tests/install.sh SOURCE_DIR BUILD_DIR}" && pwd)
build_dir=$(cd "${2:?usage: tests/install.sh SOURCE_DIR BUILD_DIR}" && pwd)
case_dir=corpus/embedding-device-assert

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "install: $*" >&2; exit 1; }

# The report every installed copy must reproduce; from the source folder, as the README runs it.
cd "$source_dir"
expected_status=0
"$build_dir/aoti-analyze" "$case_dir" > "$work/expected.txt" || expected_status=$?
[[ -s $work/expected.txt ]] || fail "the build tree's aoti-analyze printed nothing"

# same_report ROOT BINARY: BINARY (under ROOT) reproduces the build tree's report.
same_report() {
  local root=$1 binary=$2 status=0
  [[ -x $root/$binary ]] || fail "no $binary in $root"
  "$root/$binary" "$case_dir" > "$work/actual.txt" || status=$?
  ((status == expected_status)) || fail "$root/$binary exits $status, the build tree's binary $expected_status"
  diff -u "$work/expected.txt" "$work/actual.txt" || fail "$root/$binary reports differently from the build tree's"
}

# has_docs ROOT DOCDIR MANDIR: the README and the docs/ pages it links, one page per check, and the
# man page if one was built.
has_docs() {
  local root=$1 docdir=$2 mandir=$3
  [[ -f $root/$docdir/README.md ]] || fail "no $docdir/README.md in $root"
  local page  # every docs/ page the README links, beside it
  for page in $(grep -o '(docs/[^)#]*' "$source_dir/README.md" | cut -c2- | sort -u); do
    [[ -f $root/$docdir/$page ]] || fail "the README links $page, not in $root/$docdir"
  done
  local pages
  pages=$(find "$root/$docdir/checks" -name '*.md' | wc -l)
  ((pages == $(ls "$source_dir"/checks/docs/*.md | wc -l))) || fail "$pages check pages in $root/$docdir/checks"
  if [[ -f $build_dir/aoti-analyze.1.gz ]]; then
    [[ -f $root/$mandir/man1/aoti-analyze.1.gz ]] || fail "no man page in $root/$mandir/man1"
  fi
}

# ---- cmake --install -----------------------------------------------------------------------------
cmake --install "$build_dir" --prefix "$work/stage" > "$work/install.log" || { cat "$work/install.log"; fail "cmake --install failed"; }
same_report "$work/stage" bin/aoti-analyze
has_docs "$work/stage" share/doc/aoti-analyze share/man
echo "install: cmake --install gives the same report"

# ---- cpack -G DEB, unpacked ------------------------------------------------------------------------
cpack -G DEB --config "$build_dir/CPackConfig.cmake" -B "$work/package" > "$work/cpack.log" 2>&1 ||
  { cat "$work/cpack.log"; fail "cpack -G DEB failed"; }
debs=("$work"/package/aoti-analyze_*.deb)
[[ -f ${debs[0]} ]] || { cat "$work/cpack.log"; fail "cpack made no aoti-analyze_*.deb"; }
depends=$(dpkg-deb -f "${debs[0]}" Depends)
# dpkg-shlibdeps derives Depends from what the executable links: simdjson is shared (Debian has no
# archive of it), the archives linked in (libdw, SQLite, zlib, ...) need nothing installed.
[[ $depends == *libsimdjson* ]] || fail "the package's Depends: ($depends) misses the libraries it links"
dpkg-deb -x "${debs[0]}" "$work/root"
same_report "$work/root" usr/bin/aoti-analyze
has_docs "$work/root" usr/share/doc/aoti-analyze usr/share/man
echo "install: $(basename "${debs[0]}") gives the same report; Depends: $depends"
