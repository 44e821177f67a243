#!/usr/bin/env bash
# device call 1: SASS of the full-item getrf kernels and ncu stall reasons / pipe use (baseline)
# run from the device repo root: bash tmp/gpu/bench/results/2026-11-29/gpugetrf/ncu1.sh BUILD
set -u
B=$1
export KOBALT_PLUGIN_PATH=$B/lib
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv
cuobjdump -sass $B/lib/libkobalt-cuda.so > /tmp/all.sass 2>/dev/null
python3 - <<'PY' > $OUT/sass_full.txt
import re
txt=open('/tmp/all.sass').read().split('\n')
out=[];on=False
for l in txt:
    if 'Function :' in l:
        on = re.search(r'getrf_group_fullILi(16|32)EdNS_7StridedIdEELb1ELb0E', l) is not None
    if on: out.append(l)
print('\n'.join(out))
PY
wc -l $OUT/sass_full.txt
M='regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio|smsp__inst_executed_pipe_.*\.sum|sm__pipe_.*_cycles_active\.avg\.pct_of_peak_sustained_active|smsp__inst_executed\.sum|smsp__issue_active\.avg\.per_cycle_active'
for n in 16 32; do
  ncu --kernel-name regex:getrf_group_full -c 1 --metrics "$M" --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
     $B/bin/kobalt-cuda-bench 67108864 $n getrf > $OUT/ncu_$n.txt 2>&1
  grep -v "^==PROF==" $OUT/ncu_$n.txt | awk '$NF != 0 && $NF != "0" ' | grep -v "^\s*$" | head -120
done
