#!/bin/bash
# device call 3 of session 27: main at the end of the session (both CUDA changes), the whole
# CUDA test label, as much as the call's time allows
set -u
T0=$(date +%s)
CF="-G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF -DCMAKE_CUDA_ARCHITECTURES=90 -DKOBALT_BUILD_TESTS=ON"
cmake -S . -B /tmp/bv $CF > $OUT/cfg.txt 2>&1 && cmake --build /tmp/bv -j16 > $OUT/build.txt 2>&1; echo build rc $?; tail -2 $OUT/build.txt
echo built at $(( $(date +%s) - T0 )) s
L=$(( 575 - ($(date +%s) - T0) ))
(cd /tmp/bv && timeout $L ctest -L cuda -j8 > $OUT/ctest_cuda.txt 2>&1; echo ctest rc $?)
grep -E "tests passed|Failed|\*\*\*|Timeout" $OUT/ctest_cuda.txt | head -20
echo passed $(grep -c " Passed " $OUT/ctest_cuda.txt) of $(cd /tmp/bv && ctest -L cuda -N | tail -1)
echo all done at $(( $(date +%s) - T0 )) s
