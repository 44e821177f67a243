#!/usr/bin/env bash
# ab_vendor_large.sh [BUILD_DIR] [ROUNDS] [SIZES] -- getrf, getrs and the fused call above the
# group kernels (the cuBLAS paths) against cuBLAS, in one session, configurations alternating
# (docs/performance.md, "CUDA backend (NVIDIA H200)"):
#   OLD      KOBALT_CUDA_VENDOR_INPLACE=0 KOBALT_CUDA_SCRATCH_KEEP_MB=0: getrf on a packed copy,
#            the fused call solving in a copy of B, scratch from CUDA's default pool (the
#            code before branch cudalarge)
#   POOL     KOBALT_CUDA_VENDOR_INPLACE=0: the same on Kobalt's scratch pool
#   INPLACE  KOBALT_CUDA_SCRATCH_KEEP_MB=0: in place, default pool
#   NEW      the defaults: in place, Kobalt's pool
# (The A/B in docs/performance.md also ran C2/C4/C8: getrf in that many cuBLAS calls with the
# snapshot and check on a second stream, a branch threshold removed after it lost.)
# double, column-major, 256 MiB per operand, median of 15 (kobalt-cuda-bench).
# CONFIGS (environment) picks a subset, e.g. CONFIGS="OLD NEW".
set -u
BD=${1:-build}
ROUNDS=${2:-2}
SIZES=${3:-64,128,256}
CONFIGS=${CONFIGS:-OLD POOL INPLACE NEW}
export KOBALT_PLUGIN_PATH=$BD/lib
B="$BD/bin/kobalt-cuda-bench 268435456 $SIZES"
env_of() {
    case $1 in
        OLD) echo "KOBALT_CUDA_VENDOR_INPLACE=0 KOBALT_CUDA_SCRATCH_KEEP_MB=0" ;;
        POOL) echo "KOBALT_CUDA_VENDOR_INPLACE=0" ;;
        INPLACE) echo "KOBALT_CUDA_SCRATCH_KEEP_MB=0" ;;
        *) echo "" ;;
    esac
}
for r in $(seq "$ROUNDS"); do
    for c in $CONFIGS; do
        echo "== $c round $r"
        env $(env_of "$c") $B
    done
done
