#!/bin/bash
# device call 1: build, focused tests, fused/getrf A/B
set -u
B=/tmp/bf
t0=$(date +%s)
cmake -S . -B $B -G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF -DKOBALT_BUILD_TESTS=ON -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/cmake.txt 2>&1
cmake --build $B -j16 --target kobalt kobalt-cuda kobalt-cuda-bench test_cuda_routines > $OUT/build.txt 2>&1 || { tail -50 $OUT/build.txt; exit 1; }
echo "build $(( $(date +%s) - t0 )) s"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader
bash bench/cuda/ab.sh $B 3 "kobalt-cuda-bench 268435456 2,3,4,5,6,7,8 fused" OLD:KOBALT_CUDA_FUSED_WARP_MAX=0 NEW NEW2:KOBALT_CUDA_WARP_STAGE_BUFFERS=2 > $OUT/ab_fused.txt 2>&1
echo "ab fused $(( $(date +%s) - t0 )) s"
bash bench/cuda/ab.sh $B 2 "kobalt-cuda-bench 268435456 2,3,4,5,6,7,8 getrf,sgetrf" NEW NEW2:KOBALT_CUDA_WARP_STAGE_BUFFERS=2 > $OUT/ab_getrf.txt 2>&1
echo "ab getrf $(( $(date +%s) - t0 )) s"
cd $B && timeout 300 ctest -R 'cuda_fused|cuda_getrf_warp' -j4 --output-on-failure > $OUT/tests.txt 2>&1
tail -15 $OUT/tests.txt
echo "total $(( $(date +%s) - t0 )) s"
