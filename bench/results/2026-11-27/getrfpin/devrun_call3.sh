#!/bin/bash
# session 16, call 3: 1 / pivot pinned before the pivot search (group_ops.cuh pin) in
# lu_full.cuh / lu_bcast.cuh: OLD (main) and NEW trees, getrf + fused GPU tests, A/B
nvidia-smi --query-gpu=name --format=csv,noheader
rm -rf /tmp/old && mkdir -p /tmp/old && cp -r . /tmp/old/src && cp old_src/*.cuh /tmp/old/src/backends/cuda/ && rm -rf /tmp/old/src/old_src
C="-G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF -DKOBALT_BUILD_TESTS=ON -DCMAKE_CUDA_ARCHITECTURES=90"
cmake -S . -B /tmp/bf $C > $OUT/cmake.txt 2>&1 && cmake -S /tmp/old/src -B /tmp/bo $C > $OUT/cmake_old.txt 2>&1 || { tail -30 $OUT/cmake*.txt; exit 1; }
time (cmake --build /tmp/bf -j12 > $OUT/build.txt 2>&1 & cmake --build /tmp/bo -j6 --target kobalt-cuda > $OUT/build_old.txt 2>&1; wait) 
grep -B2 -A8 ' error' $OUT/build*.txt | head -40
ls /tmp/bo/lib /tmp/bf/lib
(cd /tmp/bf && ctest -R 'cuda_getrf|cuda_fused' -j8 --timeout 500 > $OUT/tests.txt 2>&1; tail -6 $OUT/tests.txt | head -3; grep -E 'Failed|\*\*\*' $OUT/tests.txt | head)
KOBALT_VERBOSE=1 KOBALT_PLUGIN_PATH=/tmp/bo/lib /tmp/bf/bin/kobalt-cuda-bench 1048576 16 getrf 2>&1 | grep -i "cuda" | head -3
bash bench/cuda/ab.sh /tmp/bf 3 "kobalt-cuda-bench 268435456 9,12,16,17,24,32 getrf,fused" OLD:KOBALT_PLUGIN_PATH=/tmp/bo/lib NEW > $OUT/ab_pin.txt 2>&1
python3 - $OUT/ab_pin.txt <<'PY'
import sys,re,statistics as st
cur=None; d={}
for l in open(sys.argv[1]):
    m=re.match(r'== (\w+) round',l)
    if m: cur=m.group(1); continue
    m=re.match(r'(\w+)\s+(\d+)\s+\d+ \|\s+([\d.]+)\s+(\d+)%\s+\|\s+([\d.]+)',l)
    if m: d.setdefault((m.group(1),int(m.group(2))),{}).setdefault(cur,[]).append((float(m.group(3)),int(m.group(4)),float(m.group(5))))
for k in sorted(d):
    cb=st.median(x[2] for v in d[k].values() for x in v)
    print(k, f"cublas {cb:.3f}", '  '.join(f"{c}: {min(x[0] for x in v):.3f}-{max(x[0] for x in v):.3f} ({st.median(x[1] for x in v)}%, {cb/st.median(x[0] for x in v):.2f}x)" for c,v in d[k].items()))
PY
