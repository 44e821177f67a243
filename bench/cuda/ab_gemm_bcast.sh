#!/usr/bin/env bash
# ab_gemm_bcast.sh [BUILD_DIR] [ROUNDS] [SIZES] [LARGE_SIZES] -- gemm's group kernel in one
# binary (docs/performance.md, "CUDA backend"), double, column-major, NoTrans, packed,
# beta = 0, 256 MiB per operand, alternating in each round:
#   OLD   GEMM_BCAST_MIN=0: op(B) broadcast by shuffles at every width (the kernel before)
#   FULL  GEMM_BCAST_NARROW_MAX=0: op(B) through shared memory (gemm_bcast.cuh), 16 columns
#         on the 16-lane group at n = 9..16
#   NEW   the defaults (FULL, but 12 columns on the 16-lane group up to n = 12)
# (Run 2 of docs/performance.md also ran B5, NEW with the 16-lane kernels' registers capped
# for 5 blocks per SM through a threshold GEMM_BCAST_BLOCKS of commit 64b97c5; it lost and
# is gone.)
# then, for LARGE_SIZES (17..32, cuBLAS by default; empty: skipped), GEMM_SMALL_MAX=32 so
# that the 32-lane group kernel runs them, shared-memory (G32) and shuffle (G32OLD); each
# row also times cuBLAS gemmStridedBatched on the same data. Median of 15 per row.
set -u
BD=${1:-build}
ROUNDS=${2:-2}
SIZES=${3:-4,8,9,10,12,16}
LARGE=${4-20,24,32}
B="$BD/bin/kobalt-cuda-bench"
export KOBALT_PLUGIN_PATH=$BD/lib
for r in $(seq "$ROUNDS"); do
    echo "== OLD round $r"; KOBALT_CUDA_GEMM_BCAST_MIN=0 "$B" 268435456 "$SIZES" gemm
    echo "== FULL round $r"; KOBALT_CUDA_GEMM_BCAST_NARROW_MAX=0 "$B" 268435456 "$SIZES" gemm
    echo "== NEW round $r"; "$B" 268435456 "$SIZES" gemm
done
if [ -n "$LARGE" ]; then
    for r in $(seq "$ROUNDS"); do
        echo "== G32 round $r"; KOBALT_CUDA_GEMM_SMALL_MAX=32 "$B" 268435456 "$LARGE" gemm
        echo "== G32OLD round $r"; KOBALT_CUDA_GEMM_SMALL_MAX=32 KOBALT_CUDA_GEMM_BCAST_MIN=0 "$B" 268435456 "$LARGE" gemm
    done
fi
