#!/usr/bin/env bash
# session 18, final device call: build the CUDA code of this submission, the whole GPU suite,
# then whether the warp-staged getrs with the ahead copies beats the pipe kernel at n = 5, 6, 8
# (double column-major NoTrans, which GETRS_PIPE_MIN keeps on getrs_pipe.cuh)
set -u
cmake -S . -B /tmp/bf -G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF \
  -DKOBALT_BUILD_TESTS=ON -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/cmake.txt 2>&1
cmake --build /tmp/bf -j16 > $OUT/build.txt 2>&1 || { tail -50 $OUT/build.txt; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt
(cd /tmp/bf && timeout 330 ctest -R 'cuda|cublas' -j8 > $OUT/ctest.txt 2>&1); tail -12 $OUT/ctest.txt
bash bench/cuda/ab.sh /tmp/bf 2 "kobalt-cuda-bench 268435456 5,6,8 getrs" PIPE WARP:KOBALT_CUDA_GETRS_PIPE_MIN=0 > $OUT/ab-pipe.txt 2>&1
python3 bench/cuda/ab_summary.py $OUT/ab-pipe.txt
