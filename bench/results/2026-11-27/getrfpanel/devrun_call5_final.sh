#!/bin/bash
nvidia-smi --query-gpu=name --format=csv,noheader
cmake -S . -B /tmp/bf -G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF -DKOBALT_BUILD_TESTS=ON -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/cmake.txt 2>&1 || { tail -30 $OUT/cmake.txt; exit 1; }
cmake --build /tmp/bf -j16 > $OUT/build.txt 2>&1 || { grep -B2 -A8 'error' $OUT/build.txt | head -60; exit 1; }
(cd /tmp/bf && ctest -R 'cuda|cublas' -j8 --timeout 500 > $OUT/tests_suite.txt 2>&1; tail -8 $OUT/tests_suite.txt; grep -E 'Failed|\*\*\*' $OUT/tests_suite.txt | head)
/tmp/bf/bin/kobalt-cuda-bench 268435456 4,5,6,7,8 getrf,fused,sgetrf > $OUT/bench_defaults.txt 2>&1; cat $OUT/bench_defaults.txt
