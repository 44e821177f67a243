#!/bin/bash
# session 16, call 2 (update split per row, element stores): getrf on two rows a lane (lu_pair.cuh): build, getrf GPU tests, A/B, SASS
nvidia-smi --query-gpu=name --format=csv,noheader
cmake -S . -B /tmp/bf -G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF -DKOBALT_BUILD_TESTS=ON -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/cmake.txt 2>&1 || { tail -30 $OUT/cmake.txt; exit 1; }
time cmake --build /tmp/bf -j16 > $OUT/build.txt 2>&1 || { grep -B2 -A8 'error' $OUT/build.txt | head -60; exit 1; }
(cd /tmp/bf && ctest -R 'cuda_getrf_(pair|full|warp$)' -j8 --timeout 500 > $OUT/tests.txt 2>&1; tail -6 $OUT/tests.txt | head -3; grep -E 'Failed|\*\*\*' $OUT/tests.txt | head; grep -h -B2 -A3 "FAIL\|differs" /tmp/bf/Testing/Temporary/LastTest.log | head -40)
bash bench/cuda/ab.sh /tmp/bf 3 "kobalt-cuda-bench 268435456 9,12,13,15,16,24,32 getrf" FULL:KOBALT_CUDA_GETRF_PAIR_MIN=0 PAIR P3:KOBALT_CUDA_GETRF_PAIR_CAP=1 > $OUT/ab_pair.txt 2>&1
python3 - $OUT/ab_pair.txt <<'PY'
import sys,re,statistics as st
cur=None; d={}
for l in open(sys.argv[1]):
    m=re.match(r'== (\w+) round',l)
    if m: cur=m.group(1); continue
    m=re.match(r'(s?getrf)\s+(\d+)\s+\d+ \|\s+([\d.]+)\s+(\d+)%\s+\|\s+([\d.]+)',l)
    if m: d.setdefault((m.group(1),int(m.group(2))),{}).setdefault(cur,[]).append((float(m.group(3)),int(m.group(4)),float(m.group(5))))
for k in sorted(d):
    cb=st.median(x[2] for v in d[k].values() for x in v)
    print(k, f"cublas {cb:.3f}", '  '.join(f"{c}: {min(x[0] for x in v):.3f}-{max(x[0] for x in v):.3f} ({st.median(x[1] for x in v)}%, {cb/st.median(x[0] for x in v):.2f}x)" for c,v in d[k].items()))
PY
CO=/usr/local/cuda/bin/cuobjdump
for f in _ZN11kobalt_cuda5group16getrf_group_pairILi16EdNS_7StridedIdEELb1ELb0ELi16ELi4EEEviNS_7MatDescET1_PixS6_x ; do
  $CO -sass -fun $f /tmp/bf/lib/libkobalt-cuda.so > $OUT/sass_$(echo $f | cut -c20-60).txt 2>&1
done
ls -la $OUT | head
