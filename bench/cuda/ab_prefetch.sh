#!/usr/bin/env bash
# ab_prefetch.sh [BUILD_DIR] [ROUNDS] -- the interleaved getrf / getrs / fused call on the GPU,
# OLD (one item per thread: the three INTERLEAVED_*_PREFETCH_MIN = 0) against NEW (the
# prefetching kernels of backends/cuda/il_prefetch.cuh at every n: = 1), same binary,
# alternating OLD NEW ROUNDS times (docs/performance.md), then one float round.
set -u
BD=${1:-build}
ROUNDS=${2:-2}
export KOBALT_PLUGIN_PATH=$BD/lib
B="$BD/bin/kobalt-cuda-desc-bench --reps 15 --standard 0 --ldp-align 32 --routines getrf,getrs,fused"
set_all() {
    export KOBALT_CUDA_INTERLEAVED_GETRF_PREFETCH_MIN=$1 KOBALT_CUDA_INTERLEAVED_GETRS_PREFETCH_MIN=$1 \
        KOBALT_CUDA_INTERLEAVED_FUSED_PREFETCH_MIN=$1
}
for r in $(seq "$ROUNDS"); do
    echo "== OLD round $r"; set_all 0; $B --sizes 2,3,4,5,6,7,8
    echo "== NEW round $r"; set_all 1; $B --sizes 2,3,4,5,6,7,8
done
echo "== OLD float"; set_all 0; $B --sizes 5,6,7,8 --prec s
echo "== NEW float"; set_all 1; $B --sizes 5,6,7,8 --prec s
