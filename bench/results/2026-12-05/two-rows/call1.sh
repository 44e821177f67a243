#!/usr/bin/env bash
# device call 1 (session 41): getrf's two-rows-a-lane kernel (lu_two_rows.cuh) against the
# defaults (lu_full.cuh), resource usage, and the getrf GPU tests.
# run from the device repo root: bash bench/results/2026-12-05/two-rows/call1.sh
# tmp/devcarry/bd.tar.xz: bin/, lib/ and the CTest files of a build configured at
# /work/main/tmp/build-dev on the development machine (nvcc 13.0, sm_90), carried.
set -u
R=$PWD
B=/work/main/tmp/build-dev
mkdir -p $B && (cd $B && xz -dc $R/tmp/devcarry/bd.tar.xz | tar xf -) || exit 1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader
cuobjdump --dump-resource-usage $B/lib/libkobalt-cuda.so 2>/dev/null | grep -A1 "getrf_two_rows\|getrf_group_full" \
  | grep -o "Function [^ ]*\|REG:[0-9]*\|STACK:[0-9]*\|SHARED:[0-9]*\|LOCAL:[0-9]*" | paste -s -d' ' \
  | sed 's/Function /\nFunction /g' | cut -c1-160 > $OUT/resources.txt
head -c 3000 $OUT/resources.txt
set -o pipefail
bash $R/bench/cuda/ab.sh $B ${ROUNDS:-2} "kobalt-cuda-bench 268435456 ${SIZES:-9,12,16,17,24,32} ${ROUTINES:-getrf,sgetrf,getrfnp}" \
   OLD NEW:KOBALT_CUDA_GETRF_TWO_ROWS_MIN=1,KOBALT_CUDA_GETRF_TWO_ROWS_MAX=32 2>&1 | tee $OUT/ab.txt | grep -v "^routine\|^device" | tail -5
python3 $R/bench/cuda/ab_summary.py < $OUT/ab.txt 2>&1 | tee $OUT/ab_summary.txt
cd $B && timeout 400 ctest -R 'getrf' -j4 > $OUT/ctest.txt 2>&1; tail -15 $OUT/ctest.txt
