#!/bin/bash
nvidia-smi --query-gpu=name --format=csv,noheader
cmake -S . -B /tmp/bf -G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF -DKOBALT_BUILD_TESTS=OFF -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/cmake.txt 2>&1 || { tail -30 $OUT/cmake.txt; exit 1; }
cmake --build /tmp/bf -j16 --target kobalt-cuda-bench kobalt-cuda kobalt > $OUT/build.txt 2>&1 || { grep -A5 error $OUT/build.txt | head -50; exit 1; }
export KOBALT_PLUGIN_PATH=/tmp/bf/lib
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu)
S="--section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats --section LaunchStats --section InstructionStats --section MemoryWorkloadAnalysis"
timeout 100 $NCU --kernel-name regex:getrf_warp --launch-skip 2 --launch-count 1 $S /tmp/bf/bin/kobalt-cuda-bench 268435456 8 getrf > $OUT/ncu_getrf8_record.txt 2>&1
KOBALT_CUDA_GETRF_WARP_RECORD_MIN=9 timeout 100 $NCU --kernel-name regex:getrf_warp --launch-skip 2 --launch-count 1 $S /tmp/bf/bin/kobalt-cuda-bench 268435456 8 getrf > $OUT/ncu_getrf8_registers.txt 2>&1
timeout 100 $NCU --kernel-name regex:fused_warp --launch-skip 2 --launch-count 1 $S /tmp/bf/bin/kobalt-cuda-bench 268435456 8 fused > $OUT/ncu_fused8.txt 2>&1
grep -E "Registers Per|Achieved Occupancy|Theoretical Occupancy|Block Limit|Memory Throughput|Issued Warp|No Eligible|Duration|Warp Cycles Per Issued|Executed Instructions  |Stall|stall" $OUT/ncu_*.txt | head -90
