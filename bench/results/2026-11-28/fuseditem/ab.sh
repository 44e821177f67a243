#!/bin/sh
# A/B of the fused call (gemm_lu_trsv, k = n, nrhs 1) at n = 2..8 (branch fuseditem, session
# 17, AVX-512 VM), one thread, from memory, arms alternated in one session, same binary, by
# the env threshold:
#   old = KOBALT_OPENMP_FUSED_ITEM_MIN=9 (main's paths: the packed path at n <= 8)
#   new = KOBALT_OPENMP_FUSED_ITEM_MIN=6 (the per-item register kernel fused_item.cpp at n = 6..8)
#   all = KOBALT_OPENMP_FUSED_ITEM_MIN=2 (the per-item kernel at every n = 2..8)
# (FUSED_ITEM_MIN_FLOAT is set to the same value in every arm, so both precisions follow it.)
# Peers: the OpenBLAS/LAPACK three sweeps (blas) and Kobalt's own three calls (kobalt3).
# The load average is logged before each invocation.
#   bench/results/2026-11-28/fuseditem/ab.sh <build dir> <out dir> [kobalt-bench options]
B=${1:-build}
OUT=${2:-.}
shift 2
SIZES=${SIZES:-2,3,4,5,6,7,8}
REPS=${REPS:-3}
ARMS=${ARMS:-old new all}
mkdir -p "$OUT"
for rep in $(seq 1 $REPS); do
    for arm in $ARMS; do
        case $arm in old) v=9 ;; new) v=6 ;; all) v=2 ;; esac
        echo "$(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg) $arm-$rep" >> "$OUT/load.txt"
        KOBALT_OPENMP_FUSED_ITEM_MIN=$v KOBALT_OPENMP_FUSED_ITEM_MIN_FLOAT=$v \
            OMP_NUM_THREADS=1 OMP_WAIT_POLICY=PASSIVE \
            "$B/bin/kobalt-bench" --routines fused --prec d,s --sizes "$SIZES" --reps 5 --mb 64 \
            --peers blas,kobalt3 "$@" --out "$OUT/$arm-$rep.csv" > "$OUT/$arm-$rep.txt" 2>&1
    done
done
echo "$(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg) end" >> "$OUT/load.txt"
