#!/bin/bash
nvidia-smi --query-gpu=name --format=csv,noheader
cmake -S . -B /tmp/bf -G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF -DKOBALT_BUILD_TESTS=ON -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/cmake.txt 2>&1 || { tail -30 $OUT/cmake.txt; exit 1; }
cmake --build /tmp/bf -j16 > $OUT/build.txt 2>&1 || { grep -A5 error $OUT/build.txt | head -50; exit 1; }
(cd /tmp/bf && ctest -R 'cuda_getrf_warp|cuda_fused_warp|cuda_fused_group' -j8 --timeout 500 > $OUT/tests.txt 2>&1; tail -15 $OUT/tests.txt)
bash bench/cuda/ab.sh /tmp/bf 3 "kobalt-cuda-bench 268435456 4,6,7,8 getrf,fused,sgetrf,sfused" OLD:KOBALT_CUDA_WARP_STAGE_AHEAD=0 NEW:KOBALT_CUDA_WARP_STAGE_AHEAD=1 > $OUT/ab.txt 2>&1
grep -E '^==|^(getrf|fused|sgetrf|sfused) ' $OUT/ab.txt | head -80
