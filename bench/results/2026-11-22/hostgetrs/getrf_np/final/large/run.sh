#!/bin/sh
# Where the unit-stride LU stops winning: old (GETRF_NP_SMALL_MAX 8) / wide (1000) at
# n = 64..256, col- and row-major from memory, two alternations.
B=${1:-build}
OUT=${2:-.}
for rep in 1 2; do
    for arm in old wide; do
        case $arm in old) v=8;; wide) v=1000;; esac
        for cfg in "colN-mem --mb 64" "rowN-mem --mb 64 --layout row"; do
            set -- $cfg; tag=$1-$arm-$rep; shift
            echo "$(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg) $tag" >> "$OUT/load.txt"
            KOBALT_OPENMP_GETRF_NP_SMALL_MAX=$v OMP_NUM_THREADS=1 OMP_WAIT_POLICY=PASSIVE \
                "$B/bin/kobalt-bench" --routines getrf_np --prec d,s --sizes 64,96,128,256 --reps 5 \
                --peers blas,kokkos "$@" --out "$OUT/$tag.csv" > "$OUT/$tag.txt" 2>/dev/null
        done
    done
done
