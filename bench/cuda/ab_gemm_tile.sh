#!/usr/bin/env bash
# ab_gemm_tile.sh [BUILD_DIR] [ROUNDS] [SIZES] -- gemm's tile kernel (gemm_tile.cu) in one
# binary (docs/performance.md, "CUDA backend", session 9), kobalt-cuda-bench's gemm row
# (double, column-major, NoTrans, packed, beta = 0, 256 MiB per operand; each row also times
# cuBLAS gemmStridedBatched on the same data), alternating in each round:
#   OFF   GEMM_TILE_MAX=0: the broadcast group kernel up to 16, cuBLAS above (the code before)
#   TILE  GEMM_TILE_MIN=1 GEMM_TILE_MAX=32: the tile kernel at every size, one stage buffer
#   TILE2 the same with GEMM_TILE_BUFFERS=2
#   T32   TILE with GEMM_TILE_SMALL_MAX=0: the 32 x 32 tile (4 x 4 a thread) at every size
# then float (semiring-cuda-bench's "kobalt gemm" and "cublas gemm" columns) OFF and TILE.
set -u
BD=${1:-build}
ROUNDS=${2:-2}
SIZES=${3:-9,10,12,16,17,20,24,28,31,32}
B="$BD/bin/kobalt-cuda-bench"
export KOBALT_PLUGIN_PATH=$BD/lib
for r in $(seq "$ROUNDS"); do
    echo "== OFF round $r"; KOBALT_CUDA_GEMM_TILE_MAX=0 "$B" 268435456 "$SIZES" gemm
    echo "== TILE round $r"; KOBALT_CUDA_GEMM_TILE_MIN=1 KOBALT_CUDA_GEMM_TILE_MAX=32 "$B" 268435456 "$SIZES" gemm
    echo "== TILE2 round $r"; KOBALT_CUDA_GEMM_TILE_MIN=1 KOBALT_CUDA_GEMM_TILE_MAX=32 KOBALT_CUDA_GEMM_TILE_BUFFERS=2 \
        "$B" 268435456 "$SIZES" gemm
    echo "== T32 round $r"; KOBALT_CUDA_GEMM_TILE_MIN=1 KOBALT_CUDA_GEMM_TILE_MAX=32 KOBALT_CUDA_GEMM_TILE_SMALL_MAX=0 \
        "$B" 268435456 "$SIZES" gemm
done
S="$BD/bin/semiring-cuda-bench"
if [ -x "$S" ]; then
    for r in $(seq "$ROUNDS"); do
        echo "== float OFF round $r"; KOBALT_CUDA_GEMM_TILE_MAX=0 "$S" 268435456 "$SIZES" s | grep -E "device|kobalt gemm"
        echo "== float TILE round $r"; KOBALT_CUDA_GEMM_TILE_MIN=1 KOBALT_CUDA_GEMM_TILE_MAX=32 "$S" 268435456 "$SIZES" s |
            grep -E "device|kobalt gemm"
    done
fi
