#!/usr/bin/env bash
# Device call 2 (session 23): the left-looking kernel with op(Y) prefetched (L1 / L2).
set -u
O=${OUT:-/tmp/out}; mkdir -p "$O"
cmake -S . -B /tmp/bf -G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF \
  -DKOBALT_BUILD_TESTS=ON -DCMAKE_CUDA_ARCHITECTURES=90 > "$O/cmake.txt" 2>&1
( time cmake --build /tmp/bf -j16 --target kobalt kobalt-cuda kobalt-cuda-desc-bench test_cuda_desc ) > "$O/build.txt" 2>&1 || { tail -50 "$O/build.txt"; exit 1; }
cuobjdump -res-usage /tmp/bf/lib/libkobalt-cuda.so 2>/dev/null | grep -A1 "il_fused" | grep -o "Function [^ ]*\|REG:[0-9]* STACK:[0-9]*" | paste - - | grep -E "IdLi[78]" | sed 's/_ZN11kobalt_cuda[^ ]*_10058//' > "$O/registers.txt"
cat "$O/registers.txt" | cut -c1-60,200-
cd /tmp/bf && ctest -R "cuda_desc" -j4 > "$O/ctest.txt" 2>&1; tail -12 "$O/ctest.txt"; cd - >/dev/null
B="kobalt-cuda-desc-bench --reps 15 --standard 0 --ldp-align 32 --sizes 7,8 --routines fused"
P=KOBALT_CUDA_INTERLEAVED_FUSED_LEFT
bash bench/cuda/ab.sh /tmp/bf 3 "$B" OLD L0:${P}_MIN=7 L1:${P}_MIN=7,${P}_PREFETCH=1 L2:${P}_MIN=7,${P}_PREFETCH=2 > "$O/ab.txt" 2>&1
grep -v "^kobalt" "$O/ab.txt"
