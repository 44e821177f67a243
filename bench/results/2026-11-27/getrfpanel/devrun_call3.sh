#!/bin/bash
nvidia-smi --query-gpu=name --format=csv,noheader
cmake -S . -B /tmp/bf -G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF -DKOBALT_BUILD_TESTS=ON -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/cmake.txt 2>&1 || { tail -30 $OUT/cmake.txt; exit 1; }
cmake --build /tmp/bf -j16 > $OUT/build.txt 2>&1 || { grep -B2 -A8 'error' $OUT/build.txt | head -60; exit 1; }
(cd /tmp/bf && ctest -R 'cuda_getrf' -j8 --timeout 500 > $OUT/tests.txt 2>&1; tail -4 $OUT/tests.txt | head -2
 for nb in 13 14; do KOBALT_CUDA_GETRF_WARP_RECORD_SWAP=$nb ctest -R 'cuda_getrf_warp_record' --timeout 500 > $OUT/tests_nb$nb.txt 2>&1; echo "NB=$nb"; grep -E "tests passed|Failed" $OUT/tests_nb$nb.txt; done)
C="KOBALT_CUDA_GETRF_WARP_RECORD_MIN=5,KOBALT_CUDA_GETRF_WARP_RECORD_MIN_FLOAT=5"
bash bench/cuda/ab.sh /tmp/bf 3 "kobalt-cuda-bench 268435456 5,6,7,8 getrf" REG:KOBALT_CUDA_GETRF_WARP_RECORD_MIN=9,KOBALT_CUDA_GETRF_WARP_RECORD_MIN_FLOAT=9 P4:KOBALT_CUDA_GETRF_WARP_RECORD_SWAP=4,$C P13:KOBALT_CUDA_GETRF_WARP_RECORD_SWAP=13,$C P14:KOBALT_CUDA_GETRF_WARP_RECORD_SWAP=14,$C P2:KOBALT_CUDA_GETRF_WARP_RECORD_SWAP=2,$C > $OUT/ab_panel.txt 2>&1
python3 - $OUT/ab_panel.txt <<'PY'
import sys,re,statistics as st
cur=None; d={}
for l in open(sys.argv[1]):
    m=re.match(r'== (\w+) round',l)
    if m: cur=m.group(1); continue
    m=re.match(r'(s?getrf)\s+(\d+)\s+\d+ \|\s+([\d.]+)\s+(\d+)%',l)
    if m: d.setdefault((m.group(1),int(m.group(2))),{}).setdefault(cur,[]).append((float(m.group(3)),int(m.group(4))))
for k in sorted(d):
    print(k, '  '.join(f"{c}: {min(x[0] for x in v):.3f}-{max(x[0] for x in v):.3f} ({st.median(x[1] for x in v)}%)" for c,v in d[k].items()))
PY
