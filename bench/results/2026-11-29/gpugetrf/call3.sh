#!/usr/bin/env bash
# device call 3 (branch gpugetrf): getrf with and without pivoting (the search's share of the
# step), old step vs the branch-free one; ncu stall reasons of the branch-free kernel at n = 16.
set -u
R=$PWD
B=$R/tmp/gpu/build-dev
mkdir -p $B && (cd $B && xz -dc $R/tmp/gpu/devcarry/bd.tar.xz | tar xf -) || exit 1
if [ ! -e /work/main/tmp/gpu/build-dev/bin ]; then mkdir -p /work/main/tmp && ln -sfn $R/tmp/gpu /work/main/tmp/gpu; fi
set -o pipefail
bash $R/tmp/gpu/bench/cuda/ab.sh $B 2 "kobalt-cuda-bench 268435456 9,16,32 getrf,getrfnp" \
   OLD:KOBALT_CUDA_GETRF_FULL_BF=0 BF:KOBALT_CUDA_GETRF_FULL_BF=1 2>&1 | tee $OUT/ab_np.txt | grep -v "^routine\|^device"
python3 $R/tmp/gpu/bench/cuda/ab_summary.py < $OUT/ab_np.txt 2>&1 | tee $OUT/ab_np_summary.txt
export KOBALT_PLUGIN_PATH=$B/lib
M='regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio|smsp__inst_executed_pipe_(cbu|lsu|alu|fp64|adu|fma|xu)\.sum$|smsp__inst_executed\.sum$|smsp__issue_active\.avg\.per_cycle_active'
KOBALT_CUDA_GETRF_FULL_BF=1 timeout 120 ncu --kernel-name regex:getrf_group_full -c 1 --metrics "$M" $B/bin/kobalt-cuda-bench 67108864 16 getrf > $OUT/ncu_bf16.txt 2>&1
grep -E "stalled|inst_executed|issue_active" $OUT/ncu_bf16.txt | awk '{print $1, $NF}'
