#!/usr/bin/env bash
# The shortest form of device_run.sh (session 55, when little device time was left): both
# plugins, the interleaved A/B at n = 7, 8 and the standard-layout A/B at n = 4, 8, GPU tests
# of the new build.
set -u
c="-G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF -DCMAKE_CUDA_ARCHITECTURES=90"
L=$OUT/log.txt
nvidia-smi --query-gpu=name --format=csv,noheader > $L
cmake -S . -B /tmp/bg $c -DKOBALT_BUILD_TESTS=ON > /tmp/c1.txt 2>&1 &
cmake -S . -B /tmp/ba $c -DKOBALT_BUILD_TESTS=OFF -DCMAKE_CUDA_FLAGS=-DKOBALT_IL_SWAP_BRANCH=1 > /tmp/c2.txt 2>&1
wait
s=$(date +%s)
(cmake --build /tmp/bg -j10 --target kobalt-cuda kobalt-cuda-desc-bench kobalt-cuda-bench test_cuda_desc > /tmp/bB.txt 2>&1; echo "B rc $?" >> /tmp/bB.txt) &
cmake --build /tmp/ba -j6 --target kobalt-cuda > /tmp/bA.txt 2>&1; echo "A rc $?" >> /tmp/bA.txt
wait
echo "builds $(( $(date +%s) - s )) s" >> $L
grep -q "B rc 0" /tmp/bB.txt && grep -q "A rc 0" /tmp/bA.txt || { tail -40 /tmp/bA.txt /tmp/bB.txt; exit 1; }
bash bench/cuda/ab.sh /tmp/bg 2 "kobalt-cuda-desc-bench --reps 15 --standard 0 --ldp-align 32 --sizes 7,8 --routines getrf,fused" \
  OLD:KOBALT_PLUGIN_PATH=/tmp/ba/lib NEW > $OUT/desc_ab.txt 2>&1
grep -h "n=\|==" $OUT/desc_ab.txt | grep -o "^==.*\|^[a-z]* *n=[0-9]*\|[0-9.]*% copy" | paste -sd' ' | sed 's/==/\n==/g' >> $L
bash bench/cuda/ab.sh /tmp/bg 2 "kobalt-cuda-bench 268435456 4,8 getrf,fused" OLD:KOBALT_PLUGIN_PATH=/tmp/ba/lib NEW > $OUT/bench_ab.txt 2>&1
python3 bench/cuda/ab_summary.py $OUT/bench_ab.txt >> $L 2>&1
(cd /tmp/bg && KOBALT_PLUGIN_PATH=/tmp/bg/lib timeout 90 ctest -R "cuda_desc" -j5 --output-on-failure) > $OUT/tests.txt 2>&1
tail -4 $OUT/tests.txt >> $L
cat $L
