#!/bin/sh
# getrf without pivoting after lu_nopivot_unit.hpp (branch hostgetrs), the committed binary,
# one thread, alternated in one session through the env threshold:
#   old  = KOBALT_OPENMP_GETRF_NP_SMALL_MAX=8    (main: the blocked CBLAS loop above 8)
#   new  = KOBALT_OPENMP_GETRF_NP_SMALL_MAX=48   (the default: the unit-stride LU up to 48)
#   wide = KOBALT_OPENMP_GETRF_NP_SMALL_MAX=1000 (the unit-stride LU at 56, 64 too)
#   bench/results/2026-11-22/hostgetrs/getrf_np/final/ab.sh <build dir> <out dir>
B=${1:-build}
OUT=${2:-.}
SIZES=${SIZES:-10,12,16,20,24,32,40,48,56,64}
for rep in 1 2; do
    for arm in old new wide; do
        case $arm in old) v=8;; new) v=48;; wide) v=1000;; esac
        for cfg in "colN-mem --mb 64" "rowN-mem --mb 64 --layout row" "colN-l3 --mb 8" "rowN-l3 --mb 8 --layout row"; do
            set -- $cfg; tag=$1-$arm-$rep; shift
            echo "$(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg) $tag" >> "$OUT/load.txt"
            KOBALT_OPENMP_GETRF_NP_SMALL_MAX=$v OMP_NUM_THREADS=1 OMP_WAIT_POLICY=PASSIVE \
                "$B/bin/kobalt-bench" --routines getrf_np --prec d,s --sizes "$SIZES" --reps 5 \
                --peers blas,kokkos "$@" --out "$OUT/$tag.csv" > "$OUT/$tag.txt" 2>/dev/null
        done
    done
done
