#!/usr/bin/env bash
# device call 3 (session 42): call 2's A/B (the kept float-only two-rows kernel, defaults,
# against lu_full.cuh with GETRF_TWO_ROWS_MIN_FLOAT = 0) and then the whole GPU test suite
# (every test of the cuda and cublas groups) on the same build of the landed code.
set -u
R=$PWD
B=/work/main/tmp/build-dev
mkdir -p $B && (cd $B && xz -dc $R/tmp/devcarry/bd.tar.xz | tar xf -) || exit 1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader
set -o pipefail
bash $R/bench/cuda/ab.sh $B ${ROUNDS:-2} "kobalt-cuda-bench 268435456 9,10,12,13,14,15,16 sgetrf" \
   OLD:KOBALT_CUDA_GETRF_TWO_ROWS_MIN_FLOAT=0 NEW 2>&1 | tee $OUT/ab3.txt | grep -v "^routine\|^device" | tail -3
python3 $R/bench/cuda/ab_summary.py < $OUT/ab3.txt 2>&1 | tee $OUT/ab3_summary.txt
cd $B && timeout ${CTEST_S:-420} ctest -j8 > $OUT/ctest3.txt 2>&1; tail -30 $OUT/ctest3.txt
