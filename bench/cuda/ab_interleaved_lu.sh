#!/usr/bin/env bash
# ab_interleaved_lu.sh [BUILD_DIR] [ROUNDS] -- the interleaved gemm / getrf / getrs / fused call on
# the GPU in one binary (docs/performance.md, "GPU: one thread per item, coalesced"):
#   OLD  the one-item kernels: INTERLEAVED_GETRS_PREFETCH_MIN=0, INTERLEAVED_FUSED_BOUNDED_MAX=0,
#        INTERLEAVED_GETRF_PAIR_MIN=0
#   NEW  the defaults (getrs prefetching and getrf on two threads per item at n = 8 in double,
#        the fused call register-capped up to 6)
# alternating OLD NEW, ROUNDS times, double, ldp a multiple of 32, median of 15; then one
# float round of each.
set -u
BD=${1:-build}
ROUNDS=${2:-2}
export KOBALT_PLUGIN_PATH=$BD/lib
B="$BD/bin/kobalt-cuda-desc-bench --reps 15 --standard 0 --ldp-align 32 --routines gemm,getrf,getrs,fused --sizes 2,3,4,5,6,7,8"
old() {
    KOBALT_CUDA_INTERLEAVED_GETRS_PREFETCH_MIN=0 KOBALT_CUDA_INTERLEAVED_FUSED_BOUNDED_MAX=0 \
        KOBALT_CUDA_INTERLEAVED_GETRF_PAIR_MIN=0 "$@"
}
for r in $(seq "$ROUNDS"); do
    echo "== OLD round $r"; old $B
    echo "== NEW round $r"; $B
done
echo "== OLD float"; old $B --prec s
echo "== NEW float"; $B --prec s
