#!/usr/bin/env bash
# ab_vendor_large.sh [BUILD_DIR] [ROUNDS] [SIZES] -- getrf, getrs and the fused call above the
# group kernels (the cuBLAS paths) against cuBLAS, in one session, configurations alternating
# (docs/performance.md, "CUDA backend (NVIDIA H200)"):
#   OLD      KOBALT_CUDA_VENDOR_INPLACE=0 KOBALT_CUDA_SCRATCH_KEEP_MB=0: getrf on a packed copy,
#            the fused call solving in a copy of B, scratch from CUDA's default pool
#   POOL     KOBALT_CUDA_VENDOR_INPLACE=0: the same on Kobalt's scratch pool
#   INPLACE  KOBALT_CUDA_SCRATCH_KEEP_MB=0: in place, default pool
#   NEW      the defaults
# double, column-major, 256 MiB per operand, median of 15 (kobalt-cuda-bench).
set -u
BD=${1:-build}
ROUNDS=${2:-2}
SIZES=${3:-64,128,256}
export KOBALT_PLUGIN_PATH=$BD/lib
B="$BD/bin/kobalt-cuda-bench 268435456 $SIZES"
for r in $(seq "$ROUNDS"); do
    echo "== OLD round $r"; KOBALT_CUDA_VENDOR_INPLACE=0 KOBALT_CUDA_SCRATCH_KEEP_MB=0 $B
    echo "== POOL round $r"; KOBALT_CUDA_VENDOR_INPLACE=0 $B
    echo "== INPLACE round $r"; KOBALT_CUDA_SCRATCH_KEEP_MB=0 $B
    echo "== NEW round $r"; $B
done
