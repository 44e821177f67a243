#!/bin/sh
# semiring_ab.sh -- A/B of the host semiring/panel kernels (semiring_kernels.cpp) against a
# base revision, in one process (semiring_ab.cpp), with libxsmm (Debian libxsmm-dev) beside.
#
#   bench/kernel_ab/semiring_ab.sh REV ISA n...     (REV: a git revision; ISA: avx512 or avx2)
#   PREC=d|s|ds  SR=202 (a kobalt_semiring; default PLUS_TIMES)  TRB=1 (B transposed)
#   KB=256 (the working set of A, B and C in KiB; the batch follows from it)  THREADS=1
#   PREFETCH=0/1 (the new copy's next-item prefetch; default: the backend's rule, from 16 MiB)
#   AHEAD=N (items ahead the new copy prefetches; default: the backend's rule, GEMM_PREFETCH_AHEAD_BYTES = 3 KiB)
#
# Prints per n: min/median microseconds per item of the base (main), the working tree (new)
# and libxsmm, new/main and xsmm/new from the minima. Builds in $TMPDIR (two compiles of
# about a minute each).
set -eu
[ $# -ge 3 ] || { echo "usage: $0 REV avx512|avx2 n..." >&2; exit 2; }
rev=$1; isa=$2; shift 2
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
case $isa in
  avx512) flags="-mavx512f -mavx512vl -mfma" ;;
  avx2) flags="-mavx2 -mfma" ;;
  *) echo "ISA must be avx512 or avx2" >&2; exit 2 ;;
esac
cxx="${CXX:-c++} -I$root/include -I$root/backends/openmp -O3 -DNDEBUG $flags -fopenmp -std=gnu++17"
git -C "$root" show "$rev:backends/openmp/semiring_kernels.cpp" > "$work/base.cpp"
$cxx -DKOBALT_SEMIRING_ISA=va -c "$work/base.cpp" -o "$work/va.o" &
$cxx -DKOBALT_SEMIRING_ISA=vb -c "$root/backends/openmp/semiring_kernels.cpp" -o "$work/vb.o"
wait
$cxx "$root/bench/kernel_ab/semiring_ab.cpp" "$work/va.o" "$work/vb.o" -lxsmm -lblas -o "$work/semiring_ab"
OMP_NUM_THREADS=${THREADS:-1} "$work/semiring_ab" "$@"
rm -rf "$work"
