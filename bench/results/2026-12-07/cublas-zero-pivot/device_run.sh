#!/usr/bin/env bash
# One device call (session 52): the cuBLAS probe, the GPU build, the vendor-path tests with
# the screen (default) and without (VENDOR_SCREEN_MAX=0), and the getrf A/B above 64.
set -u
R=bench/results/2026-12-07/cublas-zero-pivot
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $OUT/gpu.txt
(cd $R && nvcc -O2 -arch=sm_90 probe.cu -lcublas -o /tmp/probe && /tmp/probe) > $OUT/probe.txt 2>&1
cmake -S . -B /tmp/bg -G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DKOBALT_BUILD_TESTS=ON > $OUT/build.txt 2>&1
cmake --build /tmp/bg -j16 --target kobalt-cuda test_cuda_routines kobalt-cuda-bench >> $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
bash bench/cuda/ab.sh /tmp/bg 2 "kobalt-cuda-bench 268435456 128,256 getrf" OLD:KOBALT_CUDA_VENDOR_SCREEN_MAX=0 NEW > $OUT/ab.txt 2>&1
(cd /tmp/bg && timeout 240 ctest -R "cuda_routines_vendor" -j1 --output-on-failure) > $OUT/tests.txt 2>&1
tail -5 $OUT/tests.txt
python3 bench/cuda/ab_summary.py < $OUT/ab.txt 2>&1 | tail -20
head -80 $OUT/probe.txt
