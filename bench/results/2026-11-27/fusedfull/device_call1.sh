#!/bin/bash
# device call 1 (session 13): build, fused_full A/B at n = 9..32, n <= 8 defaults after the
# warp_stage refactor, then the fused / warp-staged / routines GPU tests
set -u
B=/tmp/bf
t0=$(date +%s)
cmake -S . -B $B -G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF -DKOBALT_BUILD_TESTS=ON -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/cmake.txt 2>&1
cmake --build $B -j16 > $OUT/build.txt 2>&1 || { tail -50 $OUT/build.txt; exit 1; }
echo "build $(( $(date +%s) - t0 )) s"
bash bench/cuda/ab.sh $B 2 "kobalt-cuda-bench 268435456 9,12,16,17,20,24,32 fused" OLD:KOBALT_CUDA_FUSED_FULL_MAX=0 NEW > $OUT/ab_fusedfull.txt 2>&1
grep -E '^==|^fused' $OUT/ab_fusedfull.txt
echo "ab $(( $(date +%s) - t0 )) s"
KOBALT_PLUGIN_PATH=$B/lib $B/bin/kobalt-cuda-bench 268435456 2,4,6,8 getrf,getrs,fused > $OUT/bench_small.txt 2>&1
cat $OUT/bench_small.txt
echo "bench $(( $(date +%s) - t0 )) s"
cd $B && timeout 330 ctest -R 'cuda_fused|cuda_getrf_warp|cuda_getrs_warp|cuda_routines$' -j8 --output-on-failure > $OUT/tests.txt 2>&1
grep -E "tests passed|tests failed|\*\*\*|Failed|FAIL" $OUT/tests.txt | head -30
tail -12 $OUT/tests.txt
echo "total $(( $(date +%s) - t0 )) s"
