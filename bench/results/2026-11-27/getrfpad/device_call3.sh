#!/bin/bash
# device call 3 (session 13): getrf's full-item kernel with identity padding (square items
# n < group width): A/B at n = 9..32 (OLD: GETRF_FULL_MIN 0, the broadcast kernel; NEW: 16;
# NEW9: 9), then the whole GPU suite
set -u
B=/tmp/bf
t0=$(date +%s)
cmake -S . -B $B -G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF -DKOBALT_BUILD_TESTS=ON -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/cmake.txt 2>&1
cmake --build $B -j16 > $OUT/build.txt 2>&1 || { tail -50 $OUT/build.txt; exit 1; }
echo "build $(( $(date +%s) - t0 )) s"
bash bench/cuda/ab.sh $B 2 "kobalt-cuda-bench 268435456 9,12,15,16,17,20,24,28,31,32 getrf,sgetrf" OLD:KOBALT_CUDA_GETRF_FULL_MIN=0 NEW NEW9:KOBALT_CUDA_GETRF_FULL_MIN=9 > $OUT/ab_getrf_pad.txt 2>&1
grep -E '^==|getrf' $OUT/ab_getrf_pad.txt
echo "ab $(( $(date +%s) - t0 )) s"
cd $B && timeout 330 ctest -R 'cuda|cublas' -j8 --output-on-failure > $OUT/tests.txt 2>&1
grep -E "tests passed|tests failed|\*\*\*|Failed|FAIL" $OUT/tests.txt | head -30
tail -n 8 $OUT/tests.txt
echo "total $(( $(date +%s) - t0 )) s"
