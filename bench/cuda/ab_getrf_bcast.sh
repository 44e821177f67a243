#!/usr/bin/env bash
# ab_getrf_bcast.sh [BUILD_DIR] [ROUNDS] [SIZES] -- getrf's group kernel in one binary
# (docs/performance.md, "CUDA backend"), double, column-major, packed, 256 MiB per operand:
#   OLD  GETRF_BCAST_MIN=0: lu_rows (pivot search and pivot-row broadcast by shuffles)
#   NEW  the defaults (lu_bcast.cuh from GETRF_BCAST_MIN on)
# alternating OLD NEW, ROUNDS times, median of 15 each; cuBLAS getrfBatched in every run.
set -u
BD=${1:-build}
ROUNDS=${2:-3}
SIZES=${3:-4,8,16,32}
export KOBALT_PLUGIN_PATH=$BD/lib
for r in $(seq "$ROUNDS"); do
    echo "== OLD round $r"; KOBALT_CUDA_GETRF_BCAST_MIN=0 "$BD/bin/kobalt-cuda-bench" 268435456 "$SIZES" getrf
    echo "== NEW round $r"; "$BD/bin/kobalt-cuda-bench" 268435456 "$SIZES" getrf
done
