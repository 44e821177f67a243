#!/bin/bash
# device call 3: the whole GPU test suite on the final CUDA code
set -u
B=/tmp/bf
t0=$(date +%s)
cmake -S . -B $B -G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF -DKOBALT_BUILD_TESTS=ON -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/cmake.txt 2>&1
cmake --build $B -j16 > $OUT/build.txt 2>&1 || { tail -50 $OUT/build.txt; exit 1; }
echo "build $(( $(date +%s) - t0 )) s"
git log --oneline -1
cd $B && ctest -R 'cuda|cublas' -j8 --output-on-failure > $OUT/tests.txt 2>&1
grep -E "tests passed|tests failed|Failed|\*\*\*" $OUT/tests.txt | head -20
tail -8 $OUT/tests.txt
echo "total $(( $(date +%s) - t0 )) s"
