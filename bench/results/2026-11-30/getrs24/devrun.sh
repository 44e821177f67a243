#!/bin/bash
# device call 4 of session 25: getrs_rows with n rounded up to 4 columns (branch getrs24) against main
set -u
R=$(cd ../.. && pwd)
CF="-G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF -DCMAKE_CUDA_ARCHITECTURES=90"
( cd $R && cmake -S . -B /tmp/bm $CF -DKOBALT_BUILD_TESTS=OFF > $OUT/cfg_main.txt 2>&1 && cmake --build /tmp/bm -j6 --target kobalt-cuda > $OUT/build_main.txt 2>&1; echo main build rc $? ) &
( cmake -S . -B /tmp/bv $CF -DKOBALT_BUILD_TESTS=ON > $OUT/cfg_new.txt 2>&1 && cmake --build /tmp/bv -j14 > $OUT/build_new.txt 2>&1; echo new build rc $? ) &
wait
date
bench/cuda/ab.sh /tmp/bv 2 "kobalt-cuda-bench 268435456 9,10,12,13,16,17,20,21,24,25,28,29,32 getrs" BASE:KOBALT_PLUGIN_PATH=/tmp/bm/lib NEW > $OUT/ab_getrs.txt 2>&1
date
(cd /tmp/bv && timeout 240 ctest -R 'getrs|cuda_stress' -j8 > $OUT/ctest.txt 2>&1; tail -4 $OUT/ctest.txt)
date
