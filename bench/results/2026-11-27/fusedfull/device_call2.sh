#!/bin/bash
# device call 2 (session 13): the staged group kernel at n = 17..32 (GEMM_LU_TRSV_SMALL_MAX
# 32 against the default 16, the composed sequence) in double and float, float at 9..16,
# the fused tests with the kernel at 17..32, ncu at n = 16 and 32
set -u
B=/tmp/bf
t0=$(date +%s)
cmake -S . -B $B -G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF -DKOBALT_BUILD_TESTS=ON -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/cmake.txt 2>&1
cmake --build $B -j16 > $OUT/build.txt 2>&1 || { tail -50 $OUT/build.txt; exit 1; }
echo "build $(( $(date +%s) - t0 )) s"
export KOBALT_PLUGIN_PATH=$B/lib
bash bench/cuda/ab.sh $B 2 "kobalt-cuda-bench 268435456 16,17,20,24,28,32 fused,sfused" OLD NEW:KOBALT_CUDA_GEMM_LU_TRSV_SMALL_MAX=32 > $OUT/ab_wide.txt 2>&1
grep -E '^==|fused' $OUT/ab_wide.txt
bash bench/cuda/ab.sh $B 2 "kobalt-cuda-bench 268435456 9,12,16 sfused" OLD:KOBALT_CUDA_FUSED_FULL_MAX=0 NEW > $OUT/ab_sfused.txt 2>&1
grep -E '^==|fused' $OUT/ab_sfused.txt
echo "ab $(( $(date +%s) - t0 )) s"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu)
for n in 16 32; do
  KOBALT_CUDA_GEMM_LU_TRSV_SMALL_MAX=32 timeout 80 $NCU --kernel-name regex:fused_full --launch-skip 2 --launch-count 1 --section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats --section LaunchStats --section InstructionStats $B/bin/kobalt-cuda-bench 268435456 $n fused > $OUT/ncu_fused_$n.txt 2>&1
done
grep -E "Registers Per|Achieved Occupancy|Theoretical Occupancy|Block Limit|Memory Throughput|Issued Warp|No Eligible|Duration|Dynamic Shared|Warp Cycles Per Issued|Executed Instructions  " $OUT/ncu_fused_*.txt | head -60
echo "ncu $(( $(date +%s) - t0 )) s"
cd $B
KOBALT_CUDA_GEMM_LU_TRSV_SMALL_MAX=32 timeout 150 bin/test_cuda_routines fused > $OUT/test_fused32.txt 2>&1 &
KOBALT_CUDA_GEMM_LU_TRSV_SMALL_MAX=32 KOBALT_CUDA_FUSED_WARP_MAX=0 KOBALT_CUDA_FUSED_FULL_MAX=0 timeout 150 bin/test_cuda_routines fused > $OUT/test_group32.txt 2>&1 &
wait
tail -3 $OUT/test_fused32.txt $OUT/test_group32.txt
grep -c FAIL $OUT/test_fused32.txt $OUT/test_group32.txt
grep FAIL $OUT/test_fused32.txt | head -5
echo "total $(( $(date +%s) - t0 )) s"
