#!/usr/bin/env bash
# Device call 1 (session 23): build, registers, tests of the left-looking fused kernel, A/B.
set -u
O=${OUT:-/tmp/out}; mkdir -p "$O"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv > "$O/gpu.txt" 2>&1
cmake -S . -B /tmp/bf -G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF \
  -DKOBALT_BUILD_TESTS=ON -DCMAKE_CUDA_ARCHITECTURES=90 > "$O/cmake.txt" 2>&1
( time cmake --build /tmp/bf -j16 --target kobalt kobalt-cuda kobalt-cuda-desc-bench test_cuda_desc ) > "$O/build.txt" 2>&1 || { tail -50 "$O/build.txt"; exit 1; }
cuobjdump -res-usage /tmp/bf/lib/libkobalt-cuda.so 2>/dev/null | grep -A1 "il_fused" | grep -o "Function [^ ]*\|REG:[0-9]* STACK:[0-9]*" | paste - - > "$O/registers.txt"
grep -E "il_fused(_left)?(_bounded)?IdLi[5-8]" "$O/registers.txt"
cd /tmp/bf && ctest -R "cuda_desc" -j4 > "$O/ctest.txt" 2>&1; tail -25 "$O/ctest.txt"; cd - >/dev/null
B="kobalt-cuda-desc-bench --reps 15 --standard 0 --ldp-align 32 --sizes 5,6,7,8 --routines fused"
bash bench/cuda/ab.sh /tmp/bf 3 "$B" OLD L5:KOBALT_CUDA_INTERLEAVED_FUSED_LEFT_MIN=5 LB5:KOBALT_CUDA_INTERLEAVED_FUSED_LEFT_MIN=5,KOBALT_CUDA_INTERLEAVED_FUSED_LEFT_BOUNDED=1 > "$O/ab.txt" 2>&1
python3 bench/cuda/ab_summary.py "$O/ab.txt" > "$O/ab_summary.txt" 2>&1; cat "$O/ab_summary.txt"
bash bench/cuda/ab.sh /tmp/bf 1 "$B --prec s" OLD L5:KOBALT_CUDA_INTERLEAVED_FUSED_LEFT_MIN=5 LB5:KOBALT_CUDA_INTERLEAVED_FUSED_LEFT_MIN=5,KOBALT_CUDA_INTERLEAVED_FUSED_LEFT_BOUNDED=1 > "$O/ab_s.txt" 2>&1
python3 bench/cuda/ab_summary.py "$O/ab_s.txt" > "$O/ab_s_summary.txt" 2>&1; cat "$O/ab_s_summary.txt"
