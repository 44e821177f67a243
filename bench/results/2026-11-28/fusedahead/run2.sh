#!/usr/bin/env bash
# session 18, device call 3: rebuild (GETRS_WARP_AHEAD_MIN added, FUSED_WARP_AHEAD_MIN = 5 by
# default), the warp-staged getrs and fused GPU tests, then an A/B of GETRS_WARP_AHEAD_MIN
set -u
cmake -S . -B /tmp/bf -G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF \
  -DKOBALT_BUILD_TESTS=ON -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/cmake.txt 2>&1
cmake --build /tmp/bf -j16 > $OUT/build.txt 2>&1 || { tail -50 $OUT/build.txt; exit 1; }
bash bench/cuda/ab.sh /tmp/bf 3 "kobalt-cuda-bench 268435456 2,3,4,5,6,7,8 sgetrs,getrs" OFF:KOBALT_CUDA_GETRS_WARP_AHEAD_MIN=0 ON:KOBALT_CUDA_GETRS_WARP_AHEAD_MIN=1 > $OUT/ab-getrs.txt 2>&1
python3 bench/cuda/ab_summary.py $OUT/ab-getrs.txt
cd /tmp/bf && timeout 240 ctest -R 'cuda_getrs_warp|cuda_fused_warp' -j6 > $OUT/ctest.txt 2>&1; tail -14 $OUT/ctest.txt
