#!/usr/bin/env bash
# Device call (session 23): the 24 x 24 semiring tile with gemm's launch configuration.
set -u
O=${OUT:-/tmp/out}; mkdir -p "$O"
cmake -S . -B /tmp/bs -G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF \
  -DKOBALT_BUILD_TESTS=ON -DCMAKE_CUDA_ARCHITECTURES=90 > "$O/cmake.txt" 2>&1
( time cmake --build /tmp/bs -j16 --target kobalt kobalt-cuda semiring-cuda-bench test_cuda_semiring ) > "$O/build.txt" 2>&1 || { tail -50 "$O/build.txt"; exit 1; }
tail -3 "$O/build.txt"
cuobjdump -res-usage /tmp/bs/lib/libkobalt-cuda.so 2>/dev/null | grep -A1 "semiring_tile" | grep -o "Function [^ ]*\|REG:[0-9]* STACK:[0-9]*" | paste - - > "$O/registers.txt"
grep -c . "$O/registers.txt"; grep "ILi3EdLi" "$O/registers.txt" | sed 's/.*semiring_tileILi\([0-9]*\)ELi3EdLi\([0-9]*\)ELi\([0-9]*\)E.*\t/S\1 KC\2 MINB\3 /' | sort | uniq | head -40
cd /tmp/bs
for c in 1 2 3; do KOBALT_CUDA_SEMIRING_TILE_SMALL_CONFIG=$c ctest -R "cuda_semiring" -j4 > "$O/ctest_$c.txt" 2>&1; echo "config $c: $(grep 'tests passed' "$O/ctest_$c.txt")"; done
cd - >/dev/null
V=KOBALT_CUDA_SEMIRING_TILE_SMALL_CONFIG
bash bench/cuda/ab.sh /tmp/bs 3 "semiring-cuda-bench 268435456 20,24 d" C0 C1:$V=1 C2:$V=2 C3:$V=3 > "$O/ab_d.txt" 2>&1
bash bench/cuda/ab.sh /tmp/bs 1 "semiring-cuda-bench 268435456 20,24 s" C0 C1:$V=1 C2:$V=2 C3:$V=3 > "$O/ab_s.txt" 2>&1
grep -v "^device" "$O/ab_d.txt" | head -30
