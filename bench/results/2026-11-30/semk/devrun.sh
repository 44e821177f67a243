#!/bin/bash
# device call 1 of session 25: main's plugin (/tmp/bm) against branch semk's (/tmp/bv)
set -u
R=$PWD
CF="-G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF -DCMAKE_CUDA_ARCHITECTURES=90"
( cd $R && cmake -S . -B /tmp/bm $CF -DKOBALT_BUILD_TESTS=OFF > $OUT/cfg_main.txt 2>&1 && cmake --build /tmp/bm -j8 --target kobalt-cuda > $OUT/build_main.txt 2>&1; echo main build rc $? ) &
( cd $R/tmp/semk && cmake -S . -B /tmp/bv $CF -DKOBALT_BUILD_TESTS=ON > $OUT/cfg_new.txt 2>&1 && cmake --build /tmp/bv -j12 > $OUT/build_new.txt 2>&1; echo new build rc $? ) &
wait
date
cd $R/tmp/semk
bench/cuda/ab.sh /tmp/bv 3 "semiring-cuda-bench 268435456 17,20,23,24 d" BASE:KOBALT_PLUGIN_PATH=/tmp/bm/lib NEW > $OUT/ab_semiring_d.txt 2>&1
date
bench/cuda/ab.sh /tmp/bv 2 "kobalt-cuda-bench 268435456 17,20,23,24,28,32 gemm" BASE:KOBALT_PLUGIN_PATH=/tmp/bm/lib NEW > $OUT/ab_gemm.txt 2>&1
date
bench/cuda/ab.sh /tmp/bv 1 "semiring-cuda-bench 268435456 17,20,23,28 s" BASE:KOBALT_PLUGIN_PATH=/tmp/bm/lib NEW > $OUT/ab_semiring_s.txt 2>&1
date
(cd /tmp/bv && timeout 200 ctest -R 'cuda_semiring|cuda_gemm|cuda_routines' -j8 > $OUT/ctest.txt 2>&1; tail -5 $OUT/ctest.txt)
date
