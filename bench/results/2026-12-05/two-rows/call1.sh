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
   OLD NEW:KOBALT_CUDA_GETRF_TWO_ROWS_MIN=1,KOBALT_CUDA_GETRF_TWO_ROWS_MAX=32 NEW3:KOBALT_CUDA_GETRF_TWO_ROWS_MIN=1,KOBALT_CUDA_GETRF_TWO_ROWS_MAX=32,KOBALT_TMP_TWO_ROWS_B3=1 2>&1 | tee $OUT/ab.txt | grep -v "^routine\|^device" | tail -5
python3 $R/bench/cuda/ab_summary.py < $OUT/ab.txt 2>&1 | tee $OUT/ab_summary.txt
cd $B && timeout 400 ctest -R 'getrf' -j4 > $OUT/ctest.txt 2>&1; tail -15 $OUT/ctest.txt
# ncu: instructions and stall reasons of both kernels at n = 16 (one kernel each)
export KOBALT_PLUGIN_PATH=$B/lib
M='regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio|smsp__inst_executed_pipe_(cbu|lsu|alu|fp64|adu|fma|xu)\.sum$|smsp__inst_executed\.sum$|smsp__issue_active\.avg\.per_cycle_active|sm__warps_active\.avg\.pct_of_peak_sustained_active|gpu__time_duration\.sum'
timeout 120 ncu --kernel-name regex:getrf_group_full -c 1 --metrics "$M" $B/bin/kobalt-cuda-bench 67108864 16 getrf > $OUT/ncu_n16_full.txt 2>&1
KOBALT_CUDA_GETRF_TWO_ROWS_MIN=1 KOBALT_CUDA_GETRF_TWO_ROWS_MAX=32 timeout 120 ncu --kernel-name regex:getrf_two_rows -c 1 --metrics "$M" $B/bin/kobalt-cuda-bench 67108864 16 getrf > $OUT/ncu_n16_two.txt 2>&1
for f in full two; do echo "== $f"; grep -E "stalled|inst_executed|issue_active|warps_active|duration" $OUT/ncu_n16_$f.txt | awk '{print $1, $NF}'; done
