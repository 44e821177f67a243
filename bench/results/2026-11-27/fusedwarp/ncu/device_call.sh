#!/bin/bash
# device call 2: ncu of the warp-staged fused kernel at n = 4, 5, 8
set -u
B=/tmp/bf
t0=$(date +%s)
if [ ! -f $B/lib/libkobalt-cuda.so ]; then
cmake -S . -B $B -G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF -DKOBALT_BUILD_TESTS=ON -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/cmake.txt 2>&1
cmake --build $B -j16 --target kobalt kobalt-cuda kobalt-cuda-bench > $OUT/build.txt 2>&1 || { tail -50 $OUT/build.txt; exit 1; }
fi
echo "build $(( $(date +%s) - t0 )) s"
export KOBALT_PLUGIN_PATH=$B/lib
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu)
for n in 4 5 8; do
  $NCU --kernel-name regex:fused_warp --launch-skip 2 --launch-count 1 --section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats --section LaunchStats --section MemoryWorkloadAnalysis $B/bin/kobalt-cuda-bench 268435456 $n fused > $OUT/ncu_fused_$n.txt 2>&1
  echo "ncu $n $(( $(date +%s) - t0 )) s"
done
grep -E "Registers Per|Achieved Occupancy|Theoretical Occupancy|Block Limit|Memory Throughput|DRAM Throughput|Issued Warp|No Eligible|Duration|Dynamic Shared|Warp Cycles Per Issued" $OUT/ncu_fused_*.txt | head -80
echo "total $(( $(date +%s) - t0 )) s"
