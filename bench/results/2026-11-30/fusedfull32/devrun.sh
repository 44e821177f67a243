#!/bin/bash
# device call 4 of session 26: main after getrfnc — the fused call at n = 17..32 on the staged
# kernel (GEMM_LU_TRSV_SMALL_MAX = 32) against the composed sequence (the default, 16)
set -u
T0=$(date +%s); left() { echo $(( 330 - ($(date +%s) - T0) )); }
CF="-G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF -DKOBALT_BUILD_TESTS=OFF -DCMAKE_CUDA_ARCHITECTURES=90"
cmake -S . -B /tmp/bv $CF > $OUT/cfg.txt 2>&1 && cmake --build /tmp/bv -j16 --target kobalt-cuda kobalt-cuda-bench > $OUT/build.txt 2>&1; echo build rc $?
echo built at $(( $(date +%s) - T0 )) s
L=$(left); [ $L -gt 30 ] && timeout $L bench/cuda/ab.sh /tmp/bv 2 "kobalt-cuda-bench 268435456 17,20,21,24,25,28,29,32 fused,sfused" COMPOSED FULL:KOBALT_CUDA_GEMM_LU_TRSV_SMALL_MAX=32 > $OUT/ab_fused_full32.txt 2>&1
echo ab done at $(( $(date +%s) - T0 )) s
python3 bench/cuda/ab_summary.py $OUT/ab_fused_full32.txt
