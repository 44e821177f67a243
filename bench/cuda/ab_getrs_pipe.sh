#!/usr/bin/env bash
# ab_getrs_pipe.sh [BUILD_DIR] [ROUNDS] [SIZES] -- double getrs (column-major, NoTrans,
# nrhs 1, packed, 256 MiB per operand) in one binary (docs/performance.md, "CUDA backend"):
#   OLD  GETRS_PIPE_MIN=0: the 4- / 8-lane group kernel (groups.cu)
#   NEW  GETRS_PIPE_MIN=1: one thread per item, operands piped through
#        shared memory (getrs_pipe.cuh) at every n <= 8
# alternating OLD NEW, ROUNDS times, median of 15 each; cuBLAS getrsBatched in every run.
set -u
BD=${1:-build}
ROUNDS=${2:-3}
SIZES=${3:-2,3,4,5,6,7,8}
export KOBALT_PLUGIN_PATH=$BD/lib
for r in $(seq "$ROUNDS"); do
    echo "== OLD round $r"; KOBALT_CUDA_GETRS_PIPE_MIN=0 "$BD/bin/kobalt-cuda-bench" 268435456 "$SIZES" getrs
    echo "== NEW round $r"; KOBALT_CUDA_GETRS_PIPE_MIN=1 "$BD/bin/kobalt-cuda-bench" 268435456 "$SIZES" getrs
done
