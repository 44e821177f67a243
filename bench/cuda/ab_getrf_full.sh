#!/usr/bin/env bash
# ab_getrf_full.sh [BUILD_DIR] [ROUNDS] -- getrf's full-item kernel (lu_full.cuh) in one
# binary (docs/performance.md, "CUDA backend"), double, column-major, packed, 256 MiB per
# operand, median of 15 each; cuBLAS getrfBatched in every run. Alternating, ROUNDS times:
#   OLD  GETRF_FULL_MIN=0: the broadcast kernel at n = 16, 32, the shuffle kernel at 4, 8
#   NEW  GETRF_FULL_MIN=4: lu_full.cuh at n = 4, 8, 16, 32 (the default 16: at 16 and 32)
set -u
BD=${1:-build}
ROUNDS=${2:-3}
export KOBALT_PLUGIN_PATH=$BD/lib
for r in $(seq "$ROUNDS"); do
    echo "== OLD round $r"; KOBALT_CUDA_GETRF_FULL_MIN=0 "$BD/bin/kobalt-cuda-bench" 268435456 4,8,16,32 getrf
    echo "== NEW round $r"; KOBALT_CUDA_GETRF_FULL_MIN=4 "$BD/bin/kobalt-cuda-bench" 268435456 4,8,16,32 getrf
    # TEMPORARY (the switch is removed before commit): 1 = W16 capped for 6 blocks (W32 as NEW),
    # 2 = no pivot-search shortcut (lu_bcast.cuh's three reductions every step)
    for v in 1 2; do
        echo "== V$v round $r"; KOBALT_TMP_FULL_VARIANT=$v "$BD/bin/kobalt-cuda-bench" 268435456 16,32 getrf
    done
done
