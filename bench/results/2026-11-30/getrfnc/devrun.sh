#!/bin/bash
# device call 5 of session 25: getrf_group_full with NC columns (temp switch), one round
set -u
CF="-G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF -DKOBALT_BUILD_TESTS=OFF -DCMAKE_CUDA_ARCHITECTURES=90"
cmake -S . -B /tmp/bv $CF > $OUT/cfg.txt 2>&1 && cmake --build /tmp/bv -j16 --target kobalt-cuda kobalt-cuda-bench > $OUT/build.txt 2>&1; echo build rc $?
date
bench/cuda/ab.sh /tmp/bv 1 "kobalt-cuda-bench 268435456 12,17,20,24,28 getrf" OFF:KOBALT_TMP_GETRF_NC=0 NEW > $OUT/ab_getrf.txt 2>&1
date
