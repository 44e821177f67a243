#!/bin/bash
# device call 4 (session 13): getrf's full kernel with n == W back on compile-time n (Pad
# false), padded below; final defaults at n = 4..32; getrf / fused tests
set -u
B=/tmp/bf
t0=$(date +%s)
cmake -S . -B $B -G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF -DKOBALT_BUILD_TESTS=ON -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/cmake.txt 2>&1
cmake --build $B -j16 > $OUT/build.txt 2>&1 || { tail -50 $OUT/build.txt; exit 1; }
echo "build $(( $(date +%s) - t0 )) s"
bash bench/cuda/ab.sh $B 1 "kobalt-cuda-bench 268435456 9,16,17,24,32 getrf,sgetrf" OLD:KOBALT_CUDA_GETRF_FULL_MIN=0 NEW > $OUT/ab_getrf_pad2.txt 2>&1
grep -E '^==|getrf' $OUT/ab_getrf_pad2.txt
KOBALT_PLUGIN_PATH=$B/lib $B/bin/kobalt-cuda-bench 268435456 4,8,9,12,16,17,24,32 getrf,getrs,fused,sgetrf,sfused > $OUT/bench_defaults.txt 2>&1
cat $OUT/bench_defaults.txt
echo "bench $(( $(date +%s) - t0 )) s"
cd $B && timeout 170 ctest -R 'cuda_getrf|cuda_fused|cuda_routines$|cuda_routines_own' -j8 --output-on-failure > $OUT/tests.txt 2>&1
grep -E "tests passed|tests failed|\*\*\*|Failed|FAIL" $OUT/tests.txt | head -30
tail -n 14 $OUT/tests.txt
echo "total $(( $(date +%s) - t0 )) s"
