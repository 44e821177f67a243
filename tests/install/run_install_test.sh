#!/usr/bin/env bash
# run_install_test.sh -- install a Kobalt build tree into a temporary prefix and build
# and run the plain C program examples/batched_solve.c against the installed copy only,
# three ways: through pkg-config, through find_package(Kobalt), and with no link-time
# dependency by dlopen of the SONAME (as a framework does). Needs no network.
#
#   run_install_test.sh BUILD_DIR SOURCE_DIR [CMAKE [CC [GENERATOR [MAKE_PROGRAM [LIBDIR [VERSION]]]]]]
#
# LIBDIR is the build's CMAKE_INSTALL_LIBDIR (relative to the prefix), VERSION its
# project version. The temporary prefix is removed on success and kept on failure.
set -euo pipefail

build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
cmake=${3:-cmake}
cc=${4:-${CC:-cc}}
generator=${5:-}
make_program=${6:-}
libdir_rel=${7:-lib}
version=${8:-}

step() { printf '\n=== %s\n' "$*"; }
die() { printf 'run_install_test.sh: FAILED: %s\n' "$*" >&2; exit 1; }

# Nothing from the caller's environment may point the consumers elsewhere.
unset DESTDIR KOBALT_PLUGIN_PATH KOBALT_BACKENDS PKG_CONFIG_LIBDIR PKG_CONFIG_SYSROOT_DIR
unset CMAKE_PREFIX_PATH Kobalt_DIR CPATH C_INCLUDE_PATH LIBRARY_PATH

case "$libdir_rel" in
  /*) die "CMAKE_INSTALL_LIBDIR ($libdir_rel) is absolute; this test needs a prefix-relative libdir" ;;
esac

tmp=$(mktemp -d "$build/install-test.XXXXXX")
ok=0
cleanup() {
  if [ "$ok" = 1 ]; then rm -rf "$tmp"; else echo "run_install_test.sh: kept $tmp for inspection" >&2; fi
}
trap cleanup EXIT

prefix=$tmp/prefix
libdir=$prefix/$libdir_rel

step "cmake --install $build --prefix $prefix"
"$cmake" --install "$build" --prefix "$prefix"

step "installed files"
for f in include/kobalt/kobalt.h include/kobalt/kobalt_backend.h include/kobalt/kobalt_expand.h \
         include/kobalt/kobalt_routines.def "$libdir_rel/pkgconfig/kobalt.pc" \
         "$libdir_rel/cmake/Kobalt/KobaltConfig.cmake" \
         "$libdir_rel/cmake/Kobalt/KobaltConfigVersion.cmake" \
         "$libdir_rel/cmake/Kobalt/KobaltTargets.cmake"; do
  [ -f "$prefix/$f" ] || die "missing $f in the installed tree"
done
# libkobalt.so -> libkobalt.so.0 -> libkobalt.so.X.Y.Z
[ -L "$libdir/libkobalt.so" ] || die "$libdir/libkobalt.so is not a symlink"
[ -L "$libdir/libkobalt.so.0" ] || die "$libdir/libkobalt.so.0 (the SONAME link) is missing"
real=$(readlink -f "$libdir/libkobalt.so")
if [ ! -f "$real" ] || [ "$(dirname "$real")" != "$(readlink -f "$libdir")" ]; then
  die "libkobalt.so does not resolve into $libdir"
fi
if [ -n "$version" ]; then
  [ "$(basename "$real")" = "libkobalt.so.$version" ] || die "libkobalt.so resolves to $(basename "$real"), expected libkobalt.so.$version"
fi
if command -v readelf >/dev/null; then
  soname=$(readelf -d "$real" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
  [ "$soname" = libkobalt.so.0 ] || die "SONAME of $real is '$soname', expected libkobalt.so.0"
  if readelf -d "$real" | grep -E 'R(UN)?PATH' | grep -qF "$build"; then
    die "the installed libkobalt still has an RPATH into the build tree"
  fi
fi
plugins=$(find "$libdir" -maxdepth 1 -name 'libkobalt-*.so' -printf '%f ')
[ -n "$plugins" ] || die "no backend plugin (libkobalt-*.so) installed next to libkobalt in $libdir"
echo "libkobalt: $real (SONAME ${soname:-?})"
echo "plugins:   $plugins"
if command -v ldd >/dev/null; then
  for p in $plugins; do  # informational: which BLAS the installed plugin would load
    echo "$p uses: $(ldd "$libdir/$p" | awk '/libopenblas|liblapack|libgomp|libkokkos|libtrilinos/ {printf "%s ", $3}')"
  done
fi
# Installed text files must not point back into the build tree (the temporary prefix
# itself lies inside it, so its own path is taken out first).
while IFS= read -r -d '' f; do
  if sed "s|$tmp||g" "$f" | grep -qF "$build"; then die "$f mentions the build tree $build"; fi
  if sed "s|$tmp||g" "$f" | grep -qF "$src/"; then die "$f mentions the source tree $src"; fi
done < <(find "$prefix/include" "$libdir/pkgconfig" "$libdir/cmake" -type f -print0)

step "pkg-config consumer"
export PKG_CONFIG_PATH=$libdir/pkgconfig
pcversion=$(pkg-config --modversion kobalt)
[ -z "$version" ] || [ "$pcversion" = "$version" ] || die "pkg-config says version $pcversion, expected $version"
cflags=$(pkg-config --cflags kobalt)
libs=$(pkg-config --libs kobalt)
echo "pkg-config --cflags --libs kobalt: $cflags $libs"
# shellcheck disable=SC2086 # word splitting of the flags is intended
"$cc" -std=c11 -Wall -Wextra -Werror -o "$tmp/consumer-pc" "$src/examples/batched_solve.c" \
  $cflags $libs -lm
unset PKG_CONFIG_PATH

step "run the pkg-config consumer (LD_LIBRARY_PATH=$libdir)"
LD_LIBRARY_PATH=$libdir KOBALT_VERBOSE=1 "$tmp/consumer-pc"
if command -v ldd >/dev/null; then
  used=$(LD_LIBRARY_PATH=$libdir ldd "$tmp/consumer-pc" | awk '/libkobalt\.so/ {print $3}')
  [ "$(readlink -f "$used")" = "$real" ] || die "the consumer loaded $used, not the installed $real"
fi

step "run it with KOBALT_PLUGIN_PATH set but empty (no plugins)"
LD_LIBRARY_PATH=$libdir KOBALT_PLUGIN_PATH='' "$tmp/consumer-pc" --no-backend

step "dlopen consumer: no link-time dependency, libkobalt.so.0 opened by SONAME"
# shellcheck disable=SC2086 # word splitting of the flags is intended
"$cc" -std=c11 -Wall -Wextra -Werror -DKOBALT_EXAMPLE_DLOPEN -o "$tmp/consumer-dlopen" \
  "$src/examples/batched_solve.c" $cflags -ldl -lm
if command -v readelf >/dev/null && readelf -d "$tmp/consumer-dlopen" | grep -q 'NEEDED.*libkobalt'; then
  die "the dlopen consumer links libkobalt at build time"
fi
LD_LIBRARY_PATH=$libdir "$tmp/consumer-dlopen"
LD_LIBRARY_PATH=$libdir KOBALT_PLUGIN_PATH='' "$tmp/consumer-dlopen" --no-backend

step "CMake consumer: find_package(Kobalt) with CMAKE_PREFIX_PATH=$prefix"
gen_args=()
[ -z "$generator" ] || gen_args+=(-G "$generator")
[ -z "$make_program" ] || gen_args+=("-DCMAKE_MAKE_PROGRAM=$make_program")
"$cmake" -S "$src/tests/install/cmake-consumer" -B "$tmp/cmake-consumer" "${gen_args[@]}" \
  "-DCMAKE_C_COMPILER=$cc" "-DCMAKE_PREFIX_PATH=$prefix" "-DKOBALT_EXPECTED_PREFIX=$prefix" \
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
"$cmake" --build "$tmp/cmake-consumer"

step "run the CMake consumer (no LD_LIBRARY_PATH: the build RPATH points at the prefix)"
app=$tmp/cmake-consumer/app
[ -x "$app" ] || app=$(find "$tmp/cmake-consumer" -name app -type f -perm -u+x | head -n 1)
"$app"

ok=1
step "install test passed"
