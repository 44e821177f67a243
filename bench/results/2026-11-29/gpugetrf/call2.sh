#!/usr/bin/env bash
# device call 2 (branch gpugetrf): A/B of lu_full.cuh's branch-free step, SASS, GPU tests.
# run from the device repo root: bash tmp/gpu/bench/results/2026-11-29/gpugetrf/call2.sh [tests]
set -u
R=$PWD
B=$R/tmp/gpu/build-dev
mkdir -p $B && (cd $B && xz -dc $R/tmp/gpu/devcarry/bd.tar.xz | tar xf -) || exit 1
# the build tree was configured at /work/main/tmp/gpu/build-dev (ctest files hold that path)
if [ ! -e /work/main/tmp/gpu/build-dev/bin ]; then mkdir -p /work/main/tmp && ln -sfn $R/tmp/gpu /work/main/tmp/gpu; fi
for d in shim tests; do [ -e $R/tmp/gpu/$d ] || ln -s $R/$d $R/tmp/gpu/$d; done  # unchanged on the branch
ls -la /work/main/tmp/ $R/tmp/gpu | head -12
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader
cuobjdump -sass $B/lib/libkobalt-cuda.so > /tmp/all.sass 2>/dev/null
python3 - <<'PY' > $OUT/sass_bf.txt
import re
out=[];on=False
for l in open('/tmp/all.sass'):
    if 'Function :' in l:
        on = re.search(r'getrf_group_fullILi(16|32)EdNS_7StridedIdEELb1ELb0ELi[012]E', l) is not None
    if on: out.append(l.rstrip())
print('\n'.join(out))
PY
grep "Function" $OUT/sass_bf.txt
set -o pipefail
bash $R/tmp/gpu/bench/cuda/ab.sh $B 3 "kobalt-cuda-bench 268435456 9,12,16,24,32 getrf" \
   OLD:KOBALT_CUDA_GETRF_FULL_BF=0 BF:KOBALT_CUDA_GETRF_FULL_BF=1 SC32:KOBALT_CUDA_GETRF_FULL_BF=2 2>&1 | tee $OUT/ab.txt | grep -v "^routine"
python3 $R/tmp/gpu/bench/cuda/ab_summary.py < $OUT/ab.txt 2>&1 | tee $OUT/ab_summary.txt
if [ "${1:-}" = tests ]; then
  cd /work/main/tmp/gpu/build-dev && ctest -R 'cuda|cublas' -j8 > $OUT/ctest.txt 2>&1; tail -15 $OUT/ctest.txt
fi
