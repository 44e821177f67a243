#!/usr/bin/env bash
# One device call (session 55): where the interleaved fused call at double n = 8 spends its
# time on the device (issue 9's last GPU miss). Build, registers, SASS of il_fused<double,
# 8, 8>, a timing, and one ncu profile (full set, per-instruction stall samples).
set -u
uname -r > $OUT/machine.txt
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $OUT/machine.txt
(which ncu && ncu --version) >> $OUT/machine.txt 2>&1
cmake -S . -B /tmp/bg -G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DKOBALT_BUILD_TESTS=ON > $OUT/build.txt 2>&1
start=$(date +%s)
cmake --build /tmp/bg -j16 --target kobalt-cuda kobalt-cuda-desc-bench >> $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build $(( $(date +%s) - start )) s" | tee -a $OUT/machine.txt
P=/tmp/bg/lib/libkobalt-cuda.so
cuobjdump -res-usage $P 2>&1 | grep -A1 "il_fused" > $OUT/res_usage.txt
cuobjdump -sass $P > /tmp/all.sass 2>&1
awk '/Function : /{keep = ($0 ~ /il_fusedIdLi8ELi8ELb0E/)} keep' /tmp/all.sass > $OUT/il_fused_d8.sass
grep -c "" $OUT/il_fused_d8.sass
B="/tmp/bg/bin/kobalt-cuda-desc-bench --standard 0 --ldp-align 32 --routines fused"
export KOBALT_PLUGIN_PATH=/tmp/bg/lib
$B --reps 15 --sizes 7,8 > $OUT/bench.txt 2>&1; cat $OUT/bench.txt | tail -8
timeout 360 ncu --clock-control none -k regex:il_fused --launch-skip 3 --launch-count 1 --set full \
  --import-source no -o $OUT/fused8 $B --reps 1 --sizes 8 > $OUT/ncu_run.txt 2>&1
tail -5 $OUT/ncu_run.txt
ncu -i $OUT/fused8.ncu-rep --page details --csv > $OUT/details.csv 2>&1
ncu -i $OUT/fused8.ncu-rep --page source --csv --print-source sass > $OUT/source_sass.csv 2>&1
ls -la $OUT
