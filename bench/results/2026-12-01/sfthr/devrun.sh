#!/bin/bash
# device call 1 of session 27: the float fused call at n = 17 ... 29 on the staged kernel
# (GEMM_LU_TRSV_FULL_MAX_FLOAT) and with_full_columns (one choice of NC for getrf and the fused
# call): the fused and getrf GPU tests, then main's plugin (build-basesrc = git archive of main)
# against this tree's in the same benchmark binary
set -u
T0=$(date +%s); left() { echo $(( 560 - ($(date +%s) - T0) )); }
CF="-G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF -DCMAKE_CUDA_ARCHITECTURES=90"
( cmake -S build-basesrc -B /tmp/bm $CF -DKOBALT_BUILD_TESTS=OFF > $OUT/cfg_main.txt 2>&1 && cmake --build /tmp/bm -j5 --target kobalt-cuda > $OUT/build_main.txt 2>&1; echo main build rc $? ) &
( cmake -S . -B /tmp/bv $CF -DKOBALT_BUILD_TESTS=ON > $OUT/cfg_new.txt 2>&1 && cmake --build /tmp/bv -j11 --target kobalt-cuda kobalt-cuda-bench test_cuda_routines > $OUT/build_new.txt 2>&1; echo new build rc $?; tail -3 $OUT/build_new.txt ) &
wait
echo built at $(( $(date +%s) - T0 )) s
(cd /tmp/bv && timeout 240 ctest -R 'cuda_fused_warp$|cuda_fused_full32|cuda_getrf_full_all|cuda_fused_group' -j4 > $OUT/ctest.txt 2>&1; echo ctest rc $?; grep -E "tests passed|Failed|\*\*\*" $OUT/ctest.txt)
echo ctest done at $(( $(date +%s) - T0 )) s
L=$(left); [ $L -gt 30 ] && timeout $L bench/cuda/ab.sh /tmp/bv 2 "kobalt-cuda-bench 268435456 17,20,21,24,25,28,29,32 sfused" BASE:KOBALT_PLUGIN_PATH=/tmp/bm/lib NEW > $OUT/ab_sfused.txt 2>&1
echo ab done at $(( $(date +%s) - T0 )) s
python3 bench/cuda/ab_summary.py $OUT/ab_sfused.txt
L=$(left); [ $L -gt 40 ] && timeout $L bench/cuda/ab.sh /tmp/bv 1 "kobalt-cuda-bench 268435456 12,20,28 getrf,fused" BASE:KOBALT_PLUGIN_PATH=/tmp/bm/lib NEW > $OUT/ab_same.txt 2>&1 && python3 bench/cuda/ab_summary.py $OUT/ab_same.txt
echo all done at $(( $(date +%s) - T0 )) s
