#!/usr/bin/env bash
# run_fortran_install_test.sh -- install a Kobalt build tree (built with Fortran) into a
# temporary prefix, then build examples/element_solve.f90 and tests/fortran/test_fortran.f90
# with the Fortran compiler against the installed copy only -- once through
# `pkg-config --cflags --libs kobalt-fortran`, once through
# find_package(Kobalt COMPONENTS Fortran) -- and run them. Needs no network.
#
#   run_fortran_install_test.sh BUILD_DIR SOURCE_DIR CMAKE FC [GENERATOR [MAKE_PROGRAM [LIBDIR [VERSION]]]]
#
# Exits 77 (ctest: skipped) when pkg-config is missing. The temporary prefix is removed
# on success and kept on failure.
set -euo pipefail

build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
cmake=$3
fc=$4
generator=${5:-}
make_program=${6:-}
libdir_rel=${7:-lib}
version=${8:-}

step() { printf '\n=== %s\n' "$*"; }
die() { printf 'run_fortran_install_test.sh: FAILED: %s\n' "$*" >&2; exit 1; }

command -v pkg-config >/dev/null || { echo "pkg-config not found: skipped"; exit 77; }

# Nothing from the caller's environment may point the consumers elsewhere.
unset DESTDIR KOBALT_PLUGIN_PATH KOBALT_BACKENDS PKG_CONFIG_LIBDIR PKG_CONFIG_SYSROOT_DIR
unset CMAKE_PREFIX_PATH Kobalt_DIR CPATH C_INCLUDE_PATH LIBRARY_PATH

tmp=$(mktemp -d "$build/fortran-install-test.XXXXXX")
ok=0
cleanup() {
  if [ "$ok" = 1 ]; then rm -rf "$tmp"; else echo "run_fortran_install_test.sh: kept $tmp for inspection" >&2; fi
}
trap cleanup EXIT

prefix=$tmp/prefix
libdir=$prefix/$libdir_rel

step "cmake --install $build --prefix $prefix"
"$cmake" --install "$build" --prefix "$prefix" >/dev/null

step "installed Fortran files"
for f in include/kobalt/fortran/kobalt.mod include/kobalt/fortran/kobalt.f90 \
         "$libdir_rel/pkgconfig/kobalt-fortran.pc" "$libdir_rel/cmake/Kobalt/KobaltTargets.cmake"; do
  [ -f "$prefix/$f" ] || die "missing $f in the installed tree"
done
[ -L "$libdir/libkobalt_fortran.so" ] || die "$libdir/libkobalt_fortran.so is not a symlink"
[ -L "$libdir/libkobalt_fortran.so.0" ] || die "the SONAME link libkobalt_fortran.so.0 is missing"
real=$(readlink -f "$libdir/libkobalt_fortran.so")
[ -z "$version" ] || [ "$(basename "$real")" = "libkobalt_fortran.so.$version" ] ||
  die "libkobalt_fortran.so resolves to $(basename "$real"), expected libkobalt_fortran.so.$version"
if command -v readelf >/dev/null; then
  soname=$(readelf -d "$real" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
  [ "$soname" = libkobalt_fortran.so.0 ] || die "SONAME of $real is '$soname'"
  if readelf -d "$real" | grep -E 'R(UN)?PATH' | grep -qF "$build"; then
    die "the installed libkobalt_fortran still has an RPATH into the build tree"
  fi
fi
grep -q 'Kobalt::kobalt_fortran' "$libdir/cmake/Kobalt/KobaltTargets.cmake" ||
  die "KobaltTargets.cmake does not define Kobalt::kobalt_fortran"
for f in "$prefix/include/kobalt/fortran/kobalt.f90" "$libdir/pkgconfig/kobalt-fortran.pc"; do
  if sed "s|$tmp||g" "$f" | grep -qF "$build"; then die "$f mentions the build tree $build"; fi
  if sed "s|$tmp||g" "$f" | grep -qF "$src/"; then die "$f mentions the source tree $src"; fi
done
ls -l "$prefix/include/kobalt/fortran" "$libdir"/libkobalt_fortran*

step "every routine libkobalt exports has a Fortran binding"
if command -v nm >/dev/null; then
  exported=$(nm -D --defined-only "$libdir/libkobalt.so" | awk '$3 ~ /^kobalt_/ {print $3}' | sed 's/@.*//' | sort -u)
  bound=$(sed -n 's/.*bind(C, name="\(kobalt_[a-z0-9_]*\)").*/\1/p' "$prefix/include/kobalt/fortran/kobalt.f90" | sort -u)
  missing=$(comm -23 <(echo "$exported") <(echo "$bound"))
  [ -z "$missing" ] || die "exported by libkobalt but not bound in kobalt.f90: $missing"
  echo "$(echo "$exported" | wc -l) exported kobalt_* functions, all bound"
else
  echo "nm not found: not checked"
fi

step "pkg-config consumers"
export PKG_CONFIG_PATH=$libdir/pkgconfig
pcversion=$(pkg-config --modversion kobalt-fortran)
[ -z "$version" ] || [ "$pcversion" = "$version" ] || die "pkg-config says version $pcversion, expected $version"
flags=$(pkg-config --cflags --libs kobalt-fortran)
echo "pkg-config --cflags --libs kobalt-fortran: $flags"
unset PKG_CONFIG_PATH
for prog in examples/element_solve.f90 tests/fortran/test_fortran.f90; do
  exe=$tmp/$(basename "$prog" .f90)-pc
  echo "$fc -o $exe $src/$prog $flags"
  # shellcheck disable=SC2086 # word splitting of the flags is intended
  (cd "$tmp" && "$fc" -std=f2018 -Wall -o "$exe" "$src/$prog" $flags)
done

step "run them (LD_LIBRARY_PATH=$libdir)"
LD_LIBRARY_PATH=$libdir "$tmp/test_fortran-pc"
LD_LIBRARY_PATH=$libdir "$tmp/element_solve-pc" -b 2000 -r 1
if command -v ldd >/dev/null; then
  used=$(LD_LIBRARY_PATH=$libdir ldd "$tmp/test_fortran-pc" | awk '/libkobalt_fortran\.so/ {print $3}')
  [ "$(readlink -f "$used")" = "$real" ] || die "the consumer loaded $used, not the installed $real"
fi

step "CMake consumer: find_package(Kobalt COMPONENTS Fortran) with CMAKE_PREFIX_PATH=$prefix"
gen_args=()
[ -z "$generator" ] || gen_args+=(-G "$generator")
[ -z "$make_program" ] || gen_args+=("-DCMAKE_MAKE_PROGRAM=$make_program")
"$cmake" -S "$src/tests/fortran/cmake-consumer" -B "$tmp/cmake-consumer" "${gen_args[@]}" \
  "-DCMAKE_Fortran_COMPILER=$fc" "-DCMAKE_PREFIX_PATH=$prefix" "-DKOBALT_EXPECTED_PREFIX=$prefix" \
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
"$cmake" --build "$tmp/cmake-consumer"

step "run the CMake consumers (no LD_LIBRARY_PATH: the build RPATH points at the prefix)"
"$tmp/cmake-consumer/test_fortran"
"$tmp/cmake-consumer/element_solve_fortran" -b 2000 -r 1

ok=1
step "Fortran install test passed"
