#!/usr/bin/env bash
# ab_getrf_full.sh [BUILD_DIR] [ROUNDS] [SIZES] -- getrf's full-item kernel (lu_full.cuh) in
# one binary (docs/performance.md, "CUDA backend"), double, column-major, packed, 256 MiB
# per operand, median of 15 each; cuBLAS getrfBatched in every run. Alternating, ROUNDS times:
#   OLD  GETRF_FULL_MIN=0: the broadcast kernel (lu_bcast.cuh) at n = 16, 32, shuffles at 4, 8
#   NEW  the defaults (GETRF_FULL_MIN = 16: lu_full.cuh at n = 16 and 32)
# (KOBALT_CUDA_GETRF_FULL_MIN=4 puts n = 4 and 8 on lu_full.cuh too: slower, docs/performance.md)
set -u
BD=${1:-build}
ROUNDS=${2:-3}
SIZES=${3:-4,8,16,32}
export KOBALT_PLUGIN_PATH=$BD/lib
for r in $(seq "$ROUNDS"); do
    echo "== OLD round $r"; KOBALT_CUDA_GETRF_FULL_MIN=0 "$BD/bin/kobalt-cuda-bench" 268435456 "$SIZES" getrf
    echo "== NEW round $r"; "$BD/bin/kobalt-cuda-bench" 268435456 "$SIZES" getrf
done
