#!/bin/bash
# device call 7: final build, defaults confirmed on getrs/sgetrs/fused, whole GPU suite
set -u
B=/tmp/bf
t0=$(date +%s)
cmake -S . -B $B -G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF -DKOBALT_BUILD_TESTS=ON -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/cmake.txt 2>&1
cmake --build $B -j16 > $OUT/build.txt 2>&1 || { tail -50 $OUT/build.txt; exit 1; }
echo "build $(( $(date +%s) - t0 )) s"
KOBALT_PLUGIN_PATH=$B/lib $B/bin/kobalt-cuda-bench 268435456 1,2,3,4,5,6,7,8 getrf,sgetrf,getrs,sgetrs,fused > $OUT/bench_defaults.txt 2>&1
cat $OUT/bench_defaults.txt
echo "bench $(( $(date +%s) - t0 )) s"
cd $B && ctest -R 'cuda|cublas' -j8 --output-on-failure > $OUT/tests.txt 2>&1
grep -E "tests passed|tests failed|\*\*\*|Failed" $OUT/tests.txt | head -20
tail -6 $OUT/tests.txt
echo "total $(( $(date +%s) - t0 )) s"
