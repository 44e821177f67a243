#!/usr/bin/env bash
# ab_gemm_bcast.sh [BUILD_DIR] [ROUNDS] [SIZES] [LARGE_SIZES] -- gemm's group kernel in one
# binary (docs/performance.md, "CUDA backend"), double, column-major, NoTrans, packed,
# beta = 0, 256 MiB per operand, alternating in each round:
#   OLD  GEMM_BCAST_MIN=0: op(B) broadcast by shuffles at every width (the kernel before)
#   NEW  the defaults (op(B) through shared memory from GEMM_BCAST_MIN on, gemm_bcast.cuh)
#   ALL  GEMM_BCAST_MIN=1: the shared-memory kernel at every width (n = 4, 8 too)
# then, for LARGE_SIZES (17..32, cuBLAS by default), GEMM_SMALL_MAX=32 so that the group
# kernel runs them, shared-memory (G32) and shuffle (G32OLD) variants; each row also
# times cuBLAS gemmStridedBatched on the same data. Median of 15 per row.
set -u
BD=${1:-build}
ROUNDS=${2:-3}
SIZES=${3:-4,8,10,12,16}
LARGE=${4:-20,24,32}
export KOBALT_PLUGIN_PATH=$BD/lib
for r in $(seq "$ROUNDS"); do
    echo "== OLD round $r"; KOBALT_CUDA_GEMM_BCAST_MIN=0 "$BD/bin/kobalt-cuda-bench" 268435456 "$SIZES" gemm
    echo "== NEW round $r"; "$BD/bin/kobalt-cuda-bench" 268435456 "$SIZES" gemm
    echo "== ALL round $r"; KOBALT_CUDA_GEMM_BCAST_MIN=1 "$BD/bin/kobalt-cuda-bench" 268435456 "$SIZES" gemm
done
if [ -n "$LARGE" ]; then
    for r in $(seq "$ROUNDS"); do
        echo "== G32 round $r"; KOBALT_CUDA_GEMM_SMALL_MAX=32 "$BD/bin/kobalt-cuda-bench" 268435456 "$LARGE" gemm
        echo "== G32OLD round $r"
        KOBALT_CUDA_GEMM_SMALL_MAX=32 KOBALT_CUDA_GEMM_BCAST_MIN=0 "$BD/bin/kobalt-cuda-bench" 268435456 "$LARGE" gemm
    done
fi
