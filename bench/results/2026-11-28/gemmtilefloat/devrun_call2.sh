#!/bin/bash
# session 17, call 2: the fused call's LU on the record (FUSED_WARP_RECORD_MIN), the float
# gemm tile threshold (GEMM_TILE_MAX_FLOAT), and the group broadcast kernel at W = 32 for
# double gemm at n = 17..32 (environment only): tests, A/B in one binary
nvidia-smi --query-gpu=name --format=csv,noheader
C="-G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF -DKOBALT_BUILD_TESTS=ON -DCMAKE_CUDA_ARCHITECTURES=90"
cmake -S . -B /tmp/bf $C > $OUT/cmake.txt 2>&1 || { tail -30 $OUT/cmake.txt; exit 1; }
time cmake --build /tmp/bf -j16 > $OUT/build.txt 2>&1
grep -B2 -A8 ' error' $OUT/build.txt | head -40
(cd /tmp/bf && ctest -R 'cuda_fused|cuda_gemm' -j8 --timeout 500 > $OUT/tests.txt 2>&1; tail -6 $OUT/tests.txt | head -3; grep -E 'Failed|\*\*\*' $OUT/tests.txt | head)
R="KOBALT_CUDA_FUSED_WARP_RECORD_MIN"
bash bench/cuda/ab.sh /tmp/bf 3 "kobalt-cuda-bench 268435456 5,6,7,8 fused,sfused" REG REC:$R=1,${R}_FLOAT=1 > $OUT/ab_fused.txt 2>&1
python3 bench/cuda/ab_summary.py $OUT/ab_fused.txt
bash bench/cuda/ab.sh /tmp/bf 2 "kobalt-cuda-bench 268435456 17,20,24,28,32 gemm" DEF GRP:KOBALT_CUDA_GEMM_SMALL_MAX=32,KOBALT_CUDA_GEMM_TILE_MAX=0 > $OUT/ab_gemm.txt 2>&1
python3 bench/cuda/ab_summary.py $OUT/ab_gemm.txt
bash bench/cuda/ab.sh /tmp/bf 2 "semiring-cuda-bench 268435456 17,24,25,28,31,32 s" T24 T32:KOBALT_CUDA_GEMM_TILE_MAX_FLOAT=32 > $OUT/ab_sgemm.txt 2>&1
grep -iE '^== |gemm' $OUT/ab_sgemm.txt | head -60
