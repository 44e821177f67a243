#!/bin/bash
# session 16, call 5: warp-staged getrf on one-warp blocks (GETRF_WARP_BLOCK_WARPS) A/B, tests
nvidia-smi --query-gpu=name --format=csv,noheader
C="-G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF -DKOBALT_BUILD_TESTS=ON -DCMAKE_CUDA_ARCHITECTURES=90"
cmake -S . -B /tmp/bf $C > $OUT/cmake.txt 2>&1 || { tail -30 $OUT/cmake.txt; exit 1; }
time cmake --build /tmp/bf -j16 > $OUT/build.txt 2>&1 || { grep -B2 -A8 ' error' $OUT/build.txt | head -40; exit 1; }
(cd /tmp/bf && ctest -R 'cuda_getrf_warp' -j8 --timeout 500 > $OUT/tests.txt 2>&1; tail -6 $OUT/tests.txt | head -3; grep -E 'Failed|\*\*\*' $OUT/tests.txt | head
 KOBALT_CUDA_GETRF_WARP_BLOCK_WARPS=1 ctest -R 'cuda_getrf_warp' -j8 --timeout 500 > $OUT/tests_w1.txt 2>&1; echo "W1"; grep -E "tests passed|Failed" $OUT/tests_w1.txt)
bash bench/cuda/ab.sh /tmp/bf 4 "kobalt-cuda-bench 268435456 4,5,6,7,8 getrf" W2 W1:KOBALT_CUDA_GETRF_WARP_BLOCK_WARPS=1 > $OUT/ab_w1.txt 2>&1
python3 - $OUT/ab_w1.txt <<'PY'
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
