#!/bin/bash
nvidia-smi --query-gpu=name --format=csv,noheader
cmake -S . -B /tmp/bf -G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF -DKOBALT_BUILD_TESTS=ON -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/cmake.txt 2>&1 || { tail -30 $OUT/cmake.txt; exit 1; }
cmake --build /tmp/bf -j16 > $OUT/build.txt 2>&1 || { grep -B2 -A8 'error' $OUT/build.txt | head -60; exit 1; }
(cd /tmp/bf && ctest -R 'cuda_getrf_warp' -j8 --timeout 500 > $OUT/tests.txt 2>&1; tail -12 $OUT/tests.txt)
bash bench/cuda/ab.sh /tmp/bf 3 "kobalt-cuda-bench 268435456 5,6,7,8 getrf,sgetrf" REG:KOBALT_CUDA_GETRF_WARP_RECORD_MIN=9 RL P2:KOBALT_CUDA_GETRF_WARP_RECORD_PAIRS=1,KOBALT_CUDA_GETRF_WARP_RECORD_MIN=5,KOBALT_CUDA_GETRF_WARP_RECORD_MIN_FLOAT=5 > $OUT/ab_pairs.txt 2>&1
grep -E '^==|^(getrf|sgetrf) ' $OUT/ab_pairs.txt | head -90
