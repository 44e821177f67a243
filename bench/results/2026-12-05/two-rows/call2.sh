#!/usr/bin/env bash
# device call 2 (session 41): the kept form (float only, n <= 16, GETRF_TWO_ROWS_MIN_FLOAT = 9
# by default) against lu_full.cuh (MIN_FLOAT = 0) for sgetrf at n = 9 ... 16, and the getrf
# GPU tests plus cuda_routines on that build. Same carried build layout as call1.sh.
set -u
R=$PWD
B=/work/main/tmp/build-dev
mkdir -p $B && (cd $B && xz -dc $R/tmp/devcarry/bd.tar.xz | tar xf -) || exit 1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader
set -o pipefail
bash $R/bench/cuda/ab.sh $B ${ROUNDS:-3} "kobalt-cuda-bench 268435456 9,10,12,13,14,15,16 sgetrf" \
   OLD:KOBALT_CUDA_GETRF_TWO_ROWS_MIN_FLOAT=0 NEW 2>&1 | tee $OUT/ab2.txt | grep -v "^routine\|^device" | tail -3
python3 $R/bench/cuda/ab_summary.py < $OUT/ab2.txt 2>&1 | tee $OUT/ab2_summary.txt
cd $B && timeout ${CTEST_S:-420} ctest -R "${CTEST_R:-getrf|cuda_routines$}" -j6 > $OUT/ctest2.txt 2>&1; tail -22 $OUT/ctest2.txt
