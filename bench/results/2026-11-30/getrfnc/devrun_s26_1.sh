#!/bin/bash
# device call 1 of session 26: getrfnc (NC columns in getrf's and the fused call's full-item
# kernels, no switch) — GPU tests, then an A/B against main's plugin
set -u
T0=$(date +%s); left() { echo $(( 570 - ($(date +%s) - T0) )); }
R=$(cd ../.. && pwd)
CF="-G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF -DCMAKE_CUDA_ARCHITECTURES=90"
( cd $R && cmake -S . -B /tmp/bm $CF -DKOBALT_BUILD_TESTS=OFF > $OUT/cfg_main.txt 2>&1 && cmake --build /tmp/bm -j5 --target kobalt-cuda > $OUT/build_main.txt 2>&1; echo main build rc $? ) &
( cmake -S . -B /tmp/bv $CF -DKOBALT_BUILD_TESTS=ON > $OUT/cfg_new.txt 2>&1 && cmake --build /tmp/bv -j15 > $OUT/build_new.txt 2>&1; echo new build rc $? ) &
wait
echo built at $(( $(date +%s) - T0 )) s
(cd /tmp/bv && timeout 280 ctest -R cuda -j8 > $OUT/ctest.txt 2>&1; echo ctest rc $?; grep -E "tests passed|Failed|\*\*\*" $OUT/ctest.txt | head; tail -3 $OUT/ctest.txt)
echo ctest done at $(( $(date +%s) - T0 )) s, left $(left)
L=$(left); [ $L -gt 30 ] && timeout $L bench/cuda/ab.sh /tmp/bv 2 "kobalt-cuda-bench 268435456 12,17,20,24,28 getrf,fused" BASE:KOBALT_PLUGIN_PATH=/tmp/bm/lib NEW > $OUT/ab_getrf_fused.txt 2>&1
echo ab done at $(( $(date +%s) - T0 )) s
python3 bench/cuda/ab_summary.py $OUT/ab_getrf_fused.txt
