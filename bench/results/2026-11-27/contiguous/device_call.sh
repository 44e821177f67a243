#!/bin/bash
# device call 6: the contiguous copy loop, A/B and tests
set -u
B=/tmp/bf
t0=$(date +%s)
cmake -S . -B $B -G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF -DKOBALT_BUILD_TESTS=ON -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/cmake.txt 2>&1
cmake --build $B -j16 --target kobalt kobalt-cuda kobalt-cuda-bench test_cuda_routines test_cuda_desc > $OUT/build.txt 2>&1 || { tail -50 $OUT/build.txt; exit 1; }
echo "build $(( $(date +%s) - t0 )) s"
bash bench/cuda/ab.sh $B 2 "kobalt-cuda-bench 268435456 2,3,4,5,6,7,8 getrf,sgetrf,getrs,sgetrs,fused" OLD:KOBALT_CUDA_WARP_STAGE_CONTIGUOUS=0,KOBALT_CUDA_GETRS_PIPE_MIN=0,KOBALT_CUDA_GETRS_PREFETCH_MIN=0 NEW:KOBALT_CUDA_GETRS_PIPE_MIN=0,KOBALT_CUDA_GETRS_PREFETCH_MIN=0 > $OUT/ab_contiguous.txt 2>&1
echo "ab $(( $(date +%s) - t0 )) s"
grep -E "^== |getr|fused" $OUT/ab_contiguous.txt | awk '/^==/{nm=$2; next} {print $1, $2, nm, $5, $6}' | sort -k1,1 -k2,2n -k3,3 | paste - - - -
cd $B && timeout $(( 590 - ($(date +%s) - t0) )) ctest -R 'cuda_fused|cuda_getrf_warp|cuda_getrs_warp|cuda_routines$|cuda_desc$' -j8 --output-on-failure > $OUT/tests.txt 2>&1
grep -E "Test +#|tests passed|failed" $OUT/tests.txt | tail -14
echo "total $(( $(date +%s) - t0 )) s"
