#!/bin/bash
# device call 3 of session 26: getrfnc — the fused call's product skips chunks past k only
# below the group width; fused tests with the new sizes, an A/B of the fused call
set -u
T0=$(date +%s); left() { echo $(( 570 - ($(date +%s) - T0) )); }
R=$(cd ../.. && pwd)
CF="-G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF -DCMAKE_CUDA_ARCHITECTURES=90"
( cd $R && cmake -S . -B /tmp/bm $CF -DKOBALT_BUILD_TESTS=OFF > $OUT/cfg_main.txt 2>&1 && cmake --build /tmp/bm -j5 --target kobalt-cuda > $OUT/build_main.txt 2>&1; echo main build rc $? ) &
( cmake -S . -B /tmp/bv $CF -DKOBALT_BUILD_TESTS=ON > $OUT/cfg_new.txt 2>&1 && cmake --build /tmp/bv -j15 --target kobalt-cuda kobalt-cuda-bench test_cuda_routines > $OUT/build_new.txt 2>&1; echo new build rc $? ) &
wait
echo built at $(( $(date +%s) - T0 )) s
(cd /tmp/bv && timeout 240 ctest -R cuda_fused -j6 > $OUT/ctest_fused.txt 2>&1; echo ctest rc $?; grep -E "Test +#|tests passed" $OUT/ctest_fused.txt)
echo ctest done at $(( $(date +%s) - T0 )) s
L=$(left); [ $L -gt 30 ] && timeout $L bench/cuda/ab.sh /tmp/bv 2 "kobalt-cuda-bench 268435456 9,12,13,16,17,20,29,32 fused" BASE:KOBALT_PLUGIN_PATH=/tmp/bm/lib NEW > $OUT/ab_fused.txt 2>&1
echo ab done at $(( $(date +%s) - T0 )) s
python3 bench/cuda/ab_summary.py $OUT/ab_fused.txt
