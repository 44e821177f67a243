#!/usr/bin/env bash
# ab_getrs_rows.sh [BUILD_DIR] [ROUNDS] [SIZES] -- double getrs (column-major, NoTrans,
# nrhs 1, packed, 256 MiB per operand) in one binary (docs/performance.md, "CUDA backend"):
#   OLD  GETRS_PREFETCH_MIN=0: the 16- / 32-lane group kernel (groups.cu) at n = 9..32
#   NEW  GETRS_PREFETCH_MIN=9 (run as in branch cudagetrsmid; the default is now 7): lane per row, each group's next item copied
#        into shared memory by cp.async while the current one is solved (getrs_rows.cuh)
# alternating OLD NEW, ROUNDS times, median of 15 each; cuBLAS getrsBatched in every run.
set -u
BD=${1:-build}
ROUNDS=${2:-2}
SIZES=${3:-12,16,24,32}
export KOBALT_PLUGIN_PATH=$BD/lib
for r in $(seq "$ROUNDS"); do
    echo "== OLD round $r"; KOBALT_CUDA_GETRS_PREFETCH_MIN=0 "$BD/bin/kobalt-cuda-bench" 268435456 "$SIZES" getrs
    echo "== NEW round $r"; KOBALT_CUDA_GETRS_PREFETCH_MIN=9 "$BD/bin/kobalt-cuda-bench" 268435456 "$SIZES" getrs
done
