#!/usr/bin/env bash
# One device call (session 55): the GPU LU's row interchanges without a branch around them
# (interleaved_algo.hpp, kSwapUnderBranch) against the branch (KOBALT_IL_SWAP_BRANCH=1, plugin
# in /tmp/ba), alternated in one binary; GPU tests of the new build; ncu's per-instruction
# stall samples of il_fused<double, 8> in both builds. Apply swap_branch.patch first.
set -u
c="-G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF -DCMAKE_CUDA_ARCHITECTURES=90"
L=$OUT/log.txt
nvidia-smi --query-gpu=name,driver_version --format=csv > $L
cmake -S . -B /tmp/bg $c -DKOBALT_BUILD_TESTS=ON >> $L 2>&1
cmake -S . -B /tmp/ba $c -DKOBALT_BUILD_TESTS=OFF -DCMAKE_CUDA_FLAGS=-DKOBALT_IL_SWAP_BRANCH=1 >> $L 2>&1
s=$(date +%s)
(cmake --build /tmp/bg -j10 --target kobalt-cuda kobalt-cuda-desc-bench kobalt-cuda-bench test_cuda_desc test_cuda_routines > /tmp/bB.txt 2>&1; echo "B rc $?" >> /tmp/bB.txt) &
cmake --build /tmp/ba -j6 --target kobalt-cuda > /tmp/bA.txt 2>&1; echo "A rc $?" >> /tmp/bA.txt
wait
tail -3 /tmp/bA.txt /tmp/bB.txt >> $L; echo "builds $(( $(date +%s) - s )) s" >> $L
grep -q "B rc 0" /tmp/bB.txt && grep -q "A rc 0" /tmp/bA.txt || { tail -40 /tmp/bA.txt /tmp/bB.txt; exit 1; }
for d in ba bg; do cuobjdump -res-usage /tmp/$d/lib/libkobalt-cuda.so 2>&1 | grep -A1 "il_fusedIdLi8ELi8ELb0\|il_getrfIdLi[4-7]E\|il_fusedIdLi7ELi7ELb1\|il_fused_boundedIdLi6" | grep -o "REG:[0-9]* STACK:[0-9]*" | tr '\n' ' ' | sed "s/^/$d /" >> $L; echo >> $L; done
cuobjdump -sass $(find /tmp/bg -name desc.cu.o | head -1) | awk '/Function : /{keep = ($0 ~ /il_fusedIdLi8ELi8ELb0E/)} keep' | gzip > $OUT/new_d8.sass.gz
AB=bench/cuda/ab.sh
bash $AB /tmp/bg 2 "kobalt-cuda-desc-bench --reps 15 --standard 0 --ldp-align 32 --sizes 4,6,7,8 --routines getrf,fused" \
  OLD:KOBALT_PLUGIN_PATH=/tmp/ba/lib NEW > $OUT/desc_ab.txt 2>&1
bash $AB /tmp/bg 2 "kobalt-cuda-bench 268435456 4,8 getrf,fused" \
  OLD:KOBALT_PLUGIN_PATH=/tmp/ba/lib NEW > $OUT/bench_ab.txt 2>&1
python3 - $OUT/desc_ab.txt <<'PY' >> $L
import re,sys,statistics as st
d={};cur=None
for l in open(sys.argv[1]):
    m=re.match(r"== (\w+) round",l)
    if m: cur=m.group(1); continue
    m=re.match(r"(\w+)\s+n=(\d+).*interleaved\s+([\d.]+) ms.*?([\d.]+)% copy",l)
    if m and cur: d.setdefault((m.group(1),int(m.group(2))),{}).setdefault(cur,[]).append((float(m.group(3)),float(m.group(4))))
for k in sorted(d):
    print(k[0],k[1]," | ".join(f"{c}: {min(x[0] for x in v):.3f}-{max(x[0] for x in v):.3f} ms, {st.median(x[1] for x in v):.1f}%" for c,v in d[k].items()))
PY
python3 bench/cuda/ab_summary.py $OUT/bench_ab.txt >> $L 2>&1
export KOBALT_PLUGIN_PATH=/tmp/bg/lib
(cd /tmp/bg && timeout 150 ctest -R "cuda_desc|cuda_getrf_warp$|cuda_getrf_warp_registers|cuda_fused_warp$|cuda_fused_group" -j6 --output-on-failure) > $OUT/tests.txt 2>&1
tail -4 $OUT/tests.txt >> $L
B="/tmp/bg/bin/kobalt-cuda-desc-bench --standard 0 --ldp-align 32 --routines fused --reps 1 --sizes 8"
for v in ba bg; do
  KOBALT_PLUGIN_PATH=/tmp/$v/lib timeout 150 ncu --clock-control none -k regex:il_fused --launch-skip 3 --launch-count 1 \
    --section WarpStateStats --section SourceCounters --section SchedulerStats --import-source no -o /tmp/$v $B > /tmp/ncu_$v.txt 2>&1
  ncu -i /tmp/$v.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > $OUT/source_$v.csv.gz
done
cat $L
