#!/usr/bin/env bash
# ab_lu_group.sh [BUILD_DIR] [ROUNDS] -- interleaved getrf and fused call with an item on G
# threads (il_lu_group.cuh) against the session 6 kernels, in one binary (docs/performance.md,
# GPU interleaved, session 7):
#   OLD  INTERLEAVED_GETRF_GROUP=0 (il_getrf_pair at n = 8), INTERLEAVED_FUSED_GROUP_MIN=0
#   G2   getrf n = 8 on il_getrf_group<2>, the fused call from n = 6 on il_fused_group<2>
#   G4   the same with four threads per item
# alternating OLD G2 G4, ROUNDS times, double, ldp a multiple of 32, median of 15 (n = 2 runs
# the same one-thread kernels in all: a control); then one float round of each (getrf on G
# threads from n = 8, the fused call from 6).
set -u
BD=${1:-build}
ROUNDS=${2:-3}
export KOBALT_PLUGIN_PATH=$BD/lib
B="$BD/bin/kobalt-cuda-desc-bench --reps 15 --standard 0 --ldp-align 32 --sizes 2,6,7,8 --routines getrf,fused"
v() { # v OLD|G2|G4 args...
    local k=$1 g=0 f=0 t=2
    shift
    [ "$k" = G2 ] && g=2 f=6 t=2
    [ "$k" = G4 ] && g=4 f=6 t=4
    KOBALT_CUDA_INTERLEAVED_GETRF_GROUP=$g KOBALT_CUDA_INTERLEAVED_FUSED_GROUP_MIN=$f \
        KOBALT_CUDA_INTERLEAVED_FUSED_GROUP=$t "$@"
}
for r in $(seq "$ROUNDS"); do
    for k in OLD G2 G4; do echo "== $k round $r"; v $k $B; done
done
for k in OLD G2 G4; do
    f=0; [ "$k" != OLD ] && f=6
    echo "== $k float"
    KOBALT_CUDA_INTERLEAVED_GETRF_PAIR_MIN_FLOAT=$([ "$k" = OLD ] && echo 0 || echo 8) \
        KOBALT_CUDA_INTERLEAVED_FUSED_GROUP_MIN_FLOAT=$f v $k $B --prec s
done
