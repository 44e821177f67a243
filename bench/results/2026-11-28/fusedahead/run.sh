#!/usr/bin/env bash
# session 18, device call 1: build the CUDA plugin, the fused GPU tests (ahead on/off), then
# an A/B of FUSED_WARP_AHEAD_MIN (0 = before, 5 = next group's op(X) copied during the LU)
set -u
cmake -S . -B /tmp/bf -G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF \
  -DKOBALT_BUILD_TESTS=ON -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/cmake.txt 2>&1
cmake --build /tmp/bf -j16 > $OUT/build.txt 2>&1 || { tail -50 $OUT/build.txt; exit 1; }
grep -E 'fused_warp' $OUT/build.txt | head -2
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt
bash bench/cuda/ab.sh /tmp/bf 3 "kobalt-cuda-bench 268435456 4,5,6,7,8 fused" OFF:KOBALT_CUDA_FUSED_WARP_AHEAD_MIN=0 ON:KOBALT_CUDA_FUSED_WARP_AHEAD_MIN=5 > $OUT/ab.txt 2>&1
python3 bench/cuda/ab_summary.py < $OUT/ab.txt > $OUT/ab-summary.txt 2>&1 || python3 bench/cuda/ab_summary.py $OUT/ab.txt > $OUT/ab-summary.txt 2>&1
cat $OUT/ab-summary.txt
cd /tmp/bf && timeout 300 ctest -R 'cuda_fused' -j4 > $OUT/ctest.txt 2>&1; tail -15 $OUT/ctest.txt
