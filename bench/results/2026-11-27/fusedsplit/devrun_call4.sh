#!/bin/bash
nvidia-smi --query-gpu=name --format=csv,noheader
cmake -S . -B /tmp/bf -G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF -DKOBALT_BUILD_TESTS=ON -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/cmake.txt 2>&1 || { tail -30 $OUT/cmake.txt; exit 1; }
cmake --build /tmp/bf -j16 > $OUT/build.txt 2>&1 || { grep -B2 -A8 'error' $OUT/build.txt | head -60; exit 1; }
(cd /tmp/bf && ctest -R 'cuda_fused|cuda_getrf_warp' -j8 --timeout 500 > $OUT/tests.txt 2>&1; grep -E "tests passed|Failed|\*\*\*" $OUT/tests.txt | head -20
 KOBALT_CUDA_FUSED_WARP_SPLIT_OCC=11 ctest -R 'cuda_fused_warp_split' -j8 --timeout 500 > $OUT/tests_occ11.txt 2>&1; grep -E "tests passed|Failed" $OUT/tests_occ11.txt)
bash bench/cuda/ab.sh /tmp/bf 3 "kobalt-cuda-bench 268435456 4,5,6,7,8 fused,sfused" OLD:KOBALT_CUDA_FUSED_WARP_SPLIT_MIN=9,KOBALT_CUDA_FUSED_WARP_SPLIT_MIN_FLOAT=9 SP:KOBALT_CUDA_FUSED_WARP_SPLIT_MIN=2,KOBALT_CUDA_FUSED_WARP_SPLIT_MIN_FLOAT=2 SP11:KOBALT_CUDA_FUSED_WARP_SPLIT_MIN=2,KOBALT_CUDA_FUSED_WARP_SPLIT_MIN_FLOAT=2,KOBALT_CUDA_FUSED_WARP_SPLIT_OCC=11 > $OUT/ab_split.txt 2>&1
python3 - $OUT/ab_split.txt <<'PY'
import sys,re,statistics as st
cur=None; d={}
for l in open(sys.argv[1]):
    m=re.match(r'== (\w+) round',l)
    if m: cur=m.group(1); continue
    m=re.match(r'(s?fused)\s+(\d+)\s+\d+ \|\s+([\d.]+)\s+(\d+)%\s+\|\s+([\d.]+)',l)
    if m: d.setdefault((m.group(1),int(m.group(2))),{}).setdefault(cur,[]).append((float(m.group(3)),int(m.group(4)),float(m.group(5))))
for k in sorted(d):
    print(k, '  '.join(f"{c}: {min(x[0] for x in v):.3f}-{max(x[0] for x in v):.3f} ({st.median(x[1] for x in v)}%, x{st.median(x[2] for x in v)/st.median(x[0] for x in v):.1f})" for c,v in d[k].items()))
PY
grep -E "^== OLD round 1" -A12 $OUT/ab_split.txt | head -14
