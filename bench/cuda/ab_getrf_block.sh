#!/usr/bin/env bash
# ab_getrf_block.sh [BUILD_DIR] [ROUNDS] [SIZES] [FLOAT_SIZES] -- getrf and the fused call
# above the group kernels with the block-per-item getrf (lu_block.cuh) off and on, in one
# session, configurations alternating (docs/performance.md):
#   OFF   KOBALT_CUDA_GETRF_BLOCK_MAX=0: cuBLAS getrfBatched in place with snapshot and check
#   W4    KOBALT_CUDA_GETRF_BLOCK_WARPS=4: 4 warps a block up to n = 64, 8 above (the default
#         warps; the default GETRF_BLOCK_MAX is 64, raised to 192 here in every block config)
#   W8    KOBALT_CUDA_GETRF_BLOCK_WARPS=8
#   W16   KOBALT_CUDA_GETRF_BLOCK_WARPS=16
# double (getrf, fused) and float (sgetrf, up to 192), column-major, 256 MiB per operand,
# median of 15 (kobalt-cuda-bench). CONFIGS (environment) picks a subset, e.g. "OFF W16".
set -u
BD=${1:-build}
ROUNDS=${2:-2}
SIZES=${3:-48,64,96,128,256}
FSIZES=${4:-48,64,96,128,160,192}
CONFIGS=${CONFIGS:-OFF W4 W8 W16}
export KOBALT_PLUGIN_PATH=$BD/lib
env_of() {
    case $1 in
        OFF) echo "KOBALT_CUDA_GETRF_BLOCK_MAX=0" ;;
        W4) echo "KOBALT_CUDA_GETRF_BLOCK_MAX=192 KOBALT_CUDA_GETRF_BLOCK_WARPS=4" ;;
        W8) echo "KOBALT_CUDA_GETRF_BLOCK_MAX=192 KOBALT_CUDA_GETRF_BLOCK_WARPS=8" ;;
        W16) echo "KOBALT_CUDA_GETRF_BLOCK_MAX=192 KOBALT_CUDA_GETRF_BLOCK_WARPS=16" ;;
    esac
}
for r in $(seq "$ROUNDS"); do
    for c in $CONFIGS; do
        echo "== $c round $r"
        env $(env_of "$c") "$BD/bin/kobalt-cuda-bench" 268435456 "$SIZES" getrf,fused
        env $(env_of "$c") "$BD/bin/kobalt-cuda-bench" 268435456 "$FSIZES" sgetrf
    done
done
