#!/usr/bin/env bash
# ab_getrf_pair_exchange.sh [BUILD_DIR] [ROUNDS] -- the interleaved getrf on two threads per item
# (double n = 8, il_lu_pair.cuh) with each of its exchanges, and the fused call, in one binary
# (docs/performance.md, GPU interleaved, session 7):
#   E0  INTERLEAVED_GETRF_PAIR_EXCHANGE=0: shuffles after lane-dependent branches (session 6)
#   E1  =1: converged shuffles (il_getrf_pair_conv)
#   E2  =2: converged, through shared memory
# alternating E0 E1 E2, ROUNDS times, double, ldp a multiple of 32, median of 15.
set -u
BD=${1:-build}
ROUNDS=${2:-2}
export KOBALT_PLUGIN_PATH=$BD/lib
B="$BD/bin/kobalt-cuda-desc-bench --reps 15 --standard 0 --ldp-align 32 --sizes 2,4,6,8"
for r in $(seq "$ROUNDS"); do
    for e in 0 1 2; do
        echo "== E$e round $r"; KOBALT_CUDA_INTERLEAVED_GETRF_PAIR_EXCHANGE=$e $B --routines getrf,fused
    done
done
