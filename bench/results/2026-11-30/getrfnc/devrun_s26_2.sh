#!/bin/bash
# device call 2 of session 26: getrfnc — the two fault tests the first call's timeout cut off,
# then A/Bs at the other ends of the column counts and in float
set -u
T0=$(date +%s); left() { echo $(( 570 - ($(date +%s) - T0) )); }
R=$(cd ../.. && pwd)
CF="-G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF -DCMAKE_CUDA_ARCHITECTURES=90"
( cd $R && cmake -S . -B /tmp/bm $CF -DKOBALT_BUILD_TESTS=OFF > $OUT/cfg_main.txt 2>&1 && cmake --build /tmp/bm -j6 --target kobalt-cuda > $OUT/build_main.txt 2>&1; echo main build rc $? ) &
( cmake -S . -B /tmp/bv $CF -DKOBALT_BUILD_TESTS=ON > $OUT/cfg_new.txt 2>&1 && cmake --build /tmp/bv -j14 --target kobalt-cuda kobalt-cuda-bench test_cuda_faults > $OUT/build_new.txt 2>&1; echo new build rc $? ) &
wait
echo built at $(( $(date +%s) - T0 )) s
(cd /tmp/bv && timeout 60 ctest -R cuda_fault > $OUT/ctest_faults.txt 2>&1; echo ctest rc $?; tail -4 $OUT/ctest_faults.txt)
L=$(left); [ $L -gt 30 ] && timeout $L bench/cuda/ab.sh /tmp/bv 2 "kobalt-cuda-bench 268435456 9,13,21,25,29 getrf,fused" BASE:KOBALT_PLUGIN_PATH=/tmp/bm/lib NEW > $OUT/ab_ends.txt 2>&1
echo ab1 done at $(( $(date +%s) - T0 )) s
L=$(left); [ $L -gt 30 ] && timeout $L bench/cuda/ab.sh /tmp/bv 2 "kobalt-cuda-bench 268435456 12,17,20,24,28 sgetrf,sfused" BASE:KOBALT_PLUGIN_PATH=/tmp/bm/lib NEW > $OUT/ab_float.txt 2>&1
echo ab2 done at $(( $(date +%s) - T0 )) s
python3 bench/cuda/ab_summary.py $OUT/ab_ends.txt
python3 bench/cuda/ab_summary.py $OUT/ab_float.txt
