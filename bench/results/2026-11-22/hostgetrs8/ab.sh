#!/bin/sh
# A/B of getrs at n = 2..8 with one right-hand side (branch hostgetrs8), one thread,
# alternating in one session, same binary, by the env threshold:
#   old = KOBALT_OPENMP_GETRS_TINY_MAX=0 (main: fixed-n solve at n <= 7, packed path at 8)
#   new = KOBALT_OPENMP_GETRS_TINY_MAX=8 (the grouped in-place solve, getrs_tiny.cpp)
# From memory (--mb 64) and in cache (--mb 2), column- and row-major; Trans from memory.
# The load average is logged before each invocation.
#   bench/results/2026-11-22/hostgetrs8/ab.sh <build dir> <out dir>
B=${1:-build}
OUT=${2:-.}
SIZES=${SIZES:-2,3,4,5,6,7,8}
REPS=${REPS:-3}
run() { # tag threshold kobalt-bench options...
    tag=$1; v=$2; shift 2
    echo "$(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg) $tag" >> "$OUT/load.txt"
    KOBALT_OPENMP_GETRS_TINY_MAX=$v OMP_NUM_THREADS=1 OMP_WAIT_POLICY=PASSIVE \
        "$B/bin/kobalt-bench" --routines getrs --prec d,s --sizes "$SIZES" --reps 7 \
        --peers blas,kokkos,eigen "$@" --out "$OUT/$tag.csv" > "$OUT/$tag.txt" 2>/dev/null
}
for rep in $(seq 1 $REPS); do
    for arm in old new; do
        if [ $arm = old ]; then v=0; else v=8; fi
        run colN-mem-$arm-$rep $v --mb 64
        run rowN-mem-$arm-$rep $v --mb 64 --layout row
        run colN-l2-$arm-$rep $v --mb 2
        run rowN-l2-$arm-$rep $v --mb 2 --layout row
        if [ "${TRANS:-1}" = 1 ]; then
            run colT-mem-$arm-$rep $v --mb 64 --trans T
            run rowT-mem-$arm-$rep $v --mb 64 --layout row --trans T
        fi
    done
done
