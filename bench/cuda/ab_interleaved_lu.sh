#!/usr/bin/env bash
# ab_interleaved_lu.sh [BUILD_DIR] [ROUNDS] -- the interleaved getrf / getrs / fused call on the
# GPU in one binary, configurations toggled by the CUDA thresholds (docs/performance.md):
#   OLD  the one-item kernels (every new threshold 0)
#   BND  getrf and the fused call with registers capped from n = 6, getrs prefetching at n = 8
#   PBD  BND, and getrf prefetching (il_prefetch.cuh) with registers capped from n = 6
# alternating OLD BND PBD, ROUNDS times; double, ldp a multiple of 32, median of 15.
set -u
BD=${1:-build}
ROUNDS=${2:-2}
export KOBALT_PLUGIN_PATH=$BD/lib
B="$BD/bin/kobalt-cuda-desc-bench --reps 15 --standard 0 --ldp-align 32 --routines getrf,getrs,fused --sizes 2,3,4,5,6,7,8"
conf() { # getrf prefetch, getrs prefetch (double), getrs prefetch (float), getrf capped, fused capped
    export KOBALT_CUDA_INTERLEAVED_GETRF_PREFETCH_MIN=$1 KOBALT_CUDA_INTERLEAVED_GETRS_PREFETCH_MIN=$2 \
        KOBALT_CUDA_INTERLEAVED_GETRS_PREFETCH_MIN_FLOAT=$3 KOBALT_CUDA_INTERLEAVED_GETRF_BOUNDED_MIN=$4 \
        KOBALT_CUDA_INTERLEAVED_FUSED_BOUNDED_MIN=$5
}
for r in $(seq "$ROUNDS"); do
    echo "== OLD round $r"; conf 0 0 0 0 0; $B
    echo "== BND round $r"; conf 0 8 0 6 6; $B
    echo "== PBD round $r"; conf 6 8 0 6 6; $B
done
