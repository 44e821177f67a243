#!/usr/bin/env bash
# ab_gemm_tile.sh [BUILD_DIR] [ROUNDS] [SIZES] [VARIANTS] [FLOAT_SIZES] -- gemm's tile kernel
# (gemm_tile.cu) in one binary (docs/performance.md, "CUDA backend", session 9):
# kobalt-cuda-bench's gemm row (double, column-major, NoTrans, packed, beta = 0, 256 MiB per
# operand; each row also times cuBLAS gemmStridedBatched on the same data), alternating the
# VARIANTS in each round:
#   OFF   GEMM_TILE_MAX=0: the broadcast group kernel up to 16, cuBLAS above (the code before)
#   TILE  GEMM_TILE_MIN=1 GEMM_TILE_MAX=32: the tile kernel at every size, one stage buffer
#   TILE2 the same with GEMM_TILE_BUFFERS=2
#   T32   TILE with GEMM_TILE_SMALL_MAX=0: the 32 x 32 tile (4 x 4 a thread) at every size
# then float for FLOAT_SIZES (semiring-cuda-bench's "kobalt gemm" and "cublas gemm" columns;
# empty: skipped), OFF and TILE, one round.
set -u
BD=${1:-build}
ROUNDS=${2:-2}
SIZES=${3:-9,10,12,16,17,20,24,28,31,32}
VARIANTS=${4:-OFF TILE TILE2 T32}
FSIZES=${5-$SIZES}
B="$BD/bin/kobalt-cuda-bench"
export KOBALT_PLUGIN_PATH=$BD/lib
envof() {
    case $1 in
    OFF) echo KOBALT_CUDA_GEMM_TILE_MAX=0 ;;
    TILE) echo KOBALT_CUDA_GEMM_TILE_MIN=1 KOBALT_CUDA_GEMM_TILE_MAX=32 ;;
    TILE2) echo KOBALT_CUDA_GEMM_TILE_MIN=1 KOBALT_CUDA_GEMM_TILE_MAX=32 KOBALT_CUDA_GEMM_TILE_BUFFERS=2 ;;
    T32) echo KOBALT_CUDA_GEMM_TILE_MIN=1 KOBALT_CUDA_GEMM_TILE_MAX=32 KOBALT_CUDA_GEMM_TILE_SMALL_MAX=0 ;;
    esac
}
for r in $(seq "$ROUNDS"); do
    for v in $VARIANTS; do
        echo "== $v round $r"; env $(envof "$v") "$B" 268435456 "$SIZES" gemm
    done
done
S="$BD/bin/semiring-cuda-bench"
if [ -n "$FSIZES" ] && [ -x "$S" ]; then
    for v in OFF TILE; do
        echo "== float $v"; env $(envof "$v") "$S" 268435456 "$FSIZES" s | grep -E "device|kobalt gemm"
    done
fi
