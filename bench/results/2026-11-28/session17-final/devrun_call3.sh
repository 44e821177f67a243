#!/bin/bash
# session 17, call 3: the final code (GEMM_TILE_MAX_FLOAT = 32): the whole GPU suite
nvidia-smi --query-gpu=name --format=csv,noheader
C="-G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF -DKOBALT_BUILD_TESTS=ON -DCMAKE_CUDA_ARCHITECTURES=90"
cmake -S . -B /tmp/bf $C > $OUT/cmake.txt 2>&1 || { tail -30 $OUT/cmake.txt; exit 1; }
time cmake --build /tmp/bf -j16 > $OUT/build.txt 2>&1
grep -B2 -A8 ' error' $OUT/build.txt | head -40
cd /tmp/bf && ctest -R 'cuda|cublas' -j8 --timeout 550 > $OUT/tests.txt 2>&1; grep -E 'tests passed|Failed|\*\*\*|Not Run' $OUT/tests.txt | head
