#!/usr/bin/env bash
# ab_getrf_pair_shape.sh [BUILD_DIR] [ROUNDS] -- session 6's untested candidates for the n = 8
# pair getrf (il_lu_pair.cuh) in one binary (docs/performance.md, GPU interleaved, session 7):
#   OLD   INTERLEAVED_GETRF_PAIR_BRANCHLESS=0 INTERLEAVED_GETRF_PAIR_THREADS=128 (the kernel of main
#         before session 7)
#   BL    row swaps by selects on every lane, 128-thread blocks
#   T64   row swaps under a branch, 64-thread blocks
#   BL64  both (the defaults since session 7)
# alternating, ROUNDS times, double, ldp a multiple of 32, median of 15; n = 2 (one thread per
# item in all four) is the control.
set -u
BD=${1:-build}
ROUNDS=${2:-4}
export KOBALT_PLUGIN_PATH=$BD/lib
B="$BD/bin/kobalt-cuda-desc-bench --reps 15 --standard 0 --ldp-align 32 --sizes 2,8 --routines getrf"
for r in $(seq "$ROUNDS"); do
    for v in OLD:0:128 BL:1:128 T64:0:64 BL64:1:64; do
        IFS=: read -r name bl t <<<"$v"
        echo "== $name round $r"
        KOBALT_CUDA_INTERLEAVED_GETRF_PAIR_BRANCHLESS=$bl KOBALT_CUDA_INTERLEAVED_GETRF_PAIR_THREADS=$t $B
    done
done
