#!/bin/bash
# device call 4: getrs A/B (warp-staged vs pipe/row/group), getrs tests
set -u
B=/tmp/bf
t0=$(date +%s)
cmake -S . -B $B -G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF -DKOBALT_BUILD_TESTS=ON -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/cmake.txt 2>&1
cmake --build $B -j16 --target kobalt kobalt-cuda kobalt-cuda-bench test_cuda_routines > $OUT/build.txt 2>&1 || { tail -50 $OUT/build.txt; exit 1; }
echo "build $(( $(date +%s) - t0 )) s"
bash bench/cuda/ab.sh $B 3 "kobalt-cuda-bench 268435456 1,2,3,4,5,6,7,8 getrs,sgetrs" OLD:KOBALT_CUDA_GETRS_WARP_MAX=0 NEW > $OUT/ab_getrs.txt 2>&1
echo "ab getrs $(( $(date +%s) - t0 )) s"
grep -E "^== |getrs" $OUT/ab_getrs.txt | awk '/^==/{nm=$2; next} {print $1, $2, nm, $5, $6, $8, $10}' | sort -k1,1 -k2,2n -k3,3
cd $B && timeout 240 ctest -R 'cuda_getrs' -j6 --output-on-failure > $OUT/tests.txt 2>&1
grep -E "Passed|Failed|tests passed|failed" $OUT/tests.txt | tail -10
echo "total $(( $(date +%s) - t0 )) s"
