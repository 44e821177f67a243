#!/bin/sh
# A/B of the fused call (gemm_lu_trsv, k = n, nrhs 1) at n = 2..16 (branch hostfused8), one
# thread, from memory, alternating in one session, same binary, by the env threshold:
#   old = KOBALT_OPENMP_FUSED_ITEM_MIN=9 (main: the packed path at n <= 8)
#   new = default (6: the per-item register kernel fused_item.cpp at n = 6..8)
#   all = KOBALT_OPENMP_FUSED_ITEM_MIN=2 (the per-item kernel at every n = 2..8)
# Peers: the OpenBLAS/LAPACK three sweeps (blas) and Kobalt's own three calls (kobalt3).
# The load average is logged before each invocation. FUSED_ITEM_MIN exists only at commit
# 67e418c (the kernel was taken back out, docs/performance.md "Fused call at n = 6, 8"); on
# later commits all arms run main's paths.
#   bench/results/2026-11-22/hostfused8/ab.sh <build dir> <out dir> [kobalt-bench options]
B=${1:-build}
OUT=${2:-.}
shift 2
SIZES=${SIZES:-2,3,4,5,6,8,10,12,16}
REPS=${REPS:-3}
ARMS=${ARMS:-old new all}
mkdir -p "$OUT"
for rep in $(seq 1 $REPS); do
    for arm in $ARMS; do
        case $arm in old) v=9 ;; new) v=6 ;; all) v=2 ;; esac
        echo "$(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg) $arm-$rep" >> "$OUT/load.txt"
        KOBALT_OPENMP_FUSED_ITEM_MIN=$v OMP_NUM_THREADS=1 OMP_WAIT_POLICY=PASSIVE \
            "$B/bin/kobalt-bench" --routines fused --prec d,s --sizes "$SIZES" --reps 5 --mb 64 \
            --peers blas,kobalt3 "$@" --out "$OUT/$arm-$rep.csv" > "$OUT/$arm-$rep.txt" 2>&1
    done
done
echo "$(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg) end" >> "$OUT/load.txt"
