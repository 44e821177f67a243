#!/usr/bin/env bash
# run_install_test.sh -- install a Kobalt build tree into a temporary prefix, install
# the Python package with pip (offline, the system's setuptools, no build isolation)
# into a second temporary prefix, and import it against the installed library only.
#
#   run_install_test.sh BUILD_DIR SOURCE_DIR PYTHON [CMAKE [LIBDIR]]
#
# Everything is written under BUILD_DIR/python-install-test.XXXXXX (pip's build, its
# temporary files and cache included); the source tree is not touched (the package
# is copied before pip builds it in place). Removed on success, kept on failure.
set -euo pipefail

build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
python=$3
cmake=${4:-cmake}
libdir_rel=${5:-lib}

step() { printf '\n=== %s\n' "$*"; }
die() { printf 'python run_install_test.sh: FAILED: %s\n' "$*" >&2; exit 1; }

# Nothing from the caller's environment may point the package or the library elsewhere.
unset KOBALT_LIBRARY KOBALT_PLUGIN_PATH KOBALT_BACKENDS KOBALT_VERBOSE DESTDIR
unset PYTHONPATH PYTHONHOME PIP_INDEX_URL PIP_EXTRA_INDEX_URL PIP_FIND_LINKS PIP_TARGET PIP_PREFIX
export PYTHONDONTWRITEBYTECODE=1 PYTHONNOUSERSITE=1
export PIP_CONFIG_FILE=/dev/null PIP_NO_INPUT=1 PIP_DISABLE_PIP_VERSION_CHECK=1
export PIP_ROOT_USER_ACTION=ignore PIP_NO_CACHE_DIR=1

tmp=$(mktemp -d "$build/python-install-test.XXXXXX")
ok=0
cleanup() {
  if [ "$ok" = 1 ]; then rm -rf "$tmp"; else echo "python run_install_test.sh: kept $tmp for inspection" >&2; fi
}
trap cleanup EXIT
export TMPDIR=$tmp/tmp HOME=$tmp/home
mkdir -p "$TMPDIR" "$HOME"
prefix=$tmp/prefix
libdir=$prefix/$libdir_rel

step "cmake --install $build --prefix $prefix"
"$cmake" --install "$build" --prefix "$prefix" >/dev/null
[ -e "$libdir/libkobalt.so.0" ] || die "no $libdir/libkobalt.so.0 in the installed tree"

step "pip install --no-build-isolation --no-index --prefix $tmp/site ./python (a copy)"
cp -R "$src/python" "$tmp/python"
rm -rf "$tmp/python/build" "$tmp/python"/*.egg-info
find "$tmp/python" -name __pycache__ -prune -exec rm -rf {} +
(cd "$tmp" && "$python" -m pip install --no-build-isolation --no-index --prefix "$tmp/site" ./python)
pkgdir=$(find "$tmp/site" -type f -path '*-packages/kobalt/__init__.py' -print -quit)
[ -n "$pkgdir" ] || die "pip installed no kobalt/__init__.py under $tmp/site"
pkgdir=$(dirname "$pkgdir")
site=$(dirname "$pkgdir")
ls "$site"
[ -f "$pkgdir/_lib.py" ] && [ -f "$pkgdir/lowlevel.py" ] || die "incomplete package in $pkgdir"
[ ! -e "$pkgdir/../tests" ] || die "the tests were installed as a package"

# Run from an empty folder, so that nothing but PYTHONPATH provides kobalt.
run=$tmp/run
mkdir -p "$run"
check=$src/python/tests/install_check.py

step "import kobalt through the SONAME (LD_LIBRARY_PATH=$libdir)"
(cd "$run" && PYTHONPATH=$site LD_LIBRARY_PATH=$libdir "$python" "$check" soname "$libdir")

step "import kobalt with libkobalt (and its plugins) bundled next to the package"
cp -R "$site" "$tmp/bundled"
cp -P "$libdir"/libkobalt.so* "$libdir"/libkobalt-*.so "$tmp/bundled/kobalt/"
(cd "$run" && PYTHONPATH=$tmp/bundled "$python" "$check" bundled "$tmp/bundled/kobalt")

if ldconfig -p 2>/dev/null | grep -q 'libkobalt\.so\.0 '; then
  step "skipped: the missing-library check (a libkobalt.so.0 is installed system-wide)"
else
  step "import kobalt with no libkobalt to be found"
  (cd "$run" && PYTHONPATH=$site "$python" "$check" missing)
fi

ok=1
step "python install test passed"
